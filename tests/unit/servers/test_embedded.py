"""The embedded model: which weights a setting names, and how its server is started."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.servers import chatml, embedded


def test_with_nothing_set_the_default_is_the_coder_model_in_the_data_folder(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=str(tmp_path))
    model = embedded.chosen(settings)
    assert model.name == embedded.DEFAULT == "qwen2.5-coder-1.5b"
    assert model.path is None and model.n_ctx == 8192
    assert embedded.missing(settings)[0] == (
        "qwen2.5-coder-1.5b weights: assistant models pull qwen2.5-coder-1.5b")
    weights = tmp_path / "models" / "qwen2.5-coder-1.5b.gguf"
    weights.parent.mkdir()
    weights.write_bytes(b"GGUF")
    model = embedded.chosen(settings)
    assert model.path == weights and not model.demo
    assert "demo" not in model.notice and "qwen2.5-coder-1.5b" in model.notice


def test_a_name_or_a_path_chooses_other_weights(tmp_path: Path) -> None:
    small = embedded.chosen(Settings(data_dir=str(tmp_path), embedded_model="qwen2.5-coder-0.5b"))
    assert small.name == "qwen2.5-coder-0.5b" and small.install.endswith("qwen2.5-coder-0.5b")
    own = tmp_path / "mine.gguf"
    own.write_bytes(b"GGUF")
    model = embedded.chosen(Settings(embedded_model=str(own)))
    assert (model.name, model.path, model.n_ctx) == ("mine", own, embedded.N_CTX)
    gone = embedded.chosen(Settings(embedded_model=str(tmp_path / "gone.gguf")))
    assert gone.path is None and "gone.gguf is not one" in gone.install
    demo = embedded.chosen(Settings(embedded_model=embedded.SMOLLM2))
    assert demo.demo and "demo quality" in demo.notice


def test_the_server_uses_our_template_physical_cores_and_last_token_logits(
    tmp_path: Path,
) -> None:
    own = tmp_path / "qwen2.5-coder-1.5b.gguf"
    own.write_bytes(b"GGUF")
    server = embedded.EmbeddedServer(embedded.chosen(Settings(embedded_model=str(own))))
    command = server.command()
    options = dict(zip(command[3::2], command[4::2], strict=True))
    assert command[1:3] == ["-m", "assistant.servers.chatml"]
    assert options["--chat_format"] == chatml.FORMAT == "assistant-chatml"
    assert options["--model"] == str(own) and options["--host"] == "127.0.0.1"
    assert options["--n_ctx"] == "8192" and options["--logits_all"] == "false"
    assert options["--n_threads"] == options["--n_threads_batch"] == str(
        embedded.physical_cores())
    settings = server.settings_for(Settings(temperature=0.0))
    assert settings.model == "openai/qwen2.5-coder-1.5b" and settings.code_style == "fenced"
    assert settings.temperature == 0.0 and settings.context_window == 8192
    assert settings.llm_timeout == embedded.SLOW_TIMEOUT
    assert server.settings_for(Settings(llm_timeout=900)).llm_timeout == 900


def test_physical_cores_counts_cores_not_hardware_threads() -> None:
    cores = embedded.physical_cores()
    assert 1 <= cores <= len(os.sched_getaffinity(0))
    if shutil.which("lscpu") is None:
        pytest.skip("lscpu is not installed: the count is only checked for its range")
    listing = subprocess.run(["lscpu", "-p=CPU,CORE,SOCKET"], capture_output=True, text=True,
                             check=True).stdout
    rows = [line.split(",") for line in listing.splitlines() if not line.startswith("#")]
    allowed = os.sched_getaffinity(0)
    assert cores == len({(socket, core) for cpu, core, socket in rows if int(cpu) in allowed})


def test_a_missing_model_is_one_line_before_anything_starts(tmp_path: Path) -> None:
    model = embedded.chosen(Settings(data_dir=str(tmp_path)))
    with pytest.raises(embedded.EmbeddedError) as caught:
        embedded.EmbeddedServer(model).start()
    assert str(caught.value) == ("the embedded model qwen2.5-coder-1.5b is not installed: "
                                 "run assistant models pull qwen2.5-coder-1.5b")
