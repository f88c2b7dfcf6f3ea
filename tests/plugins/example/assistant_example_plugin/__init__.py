"""An example plugin: a tool (`example.word_count`), a language (`sql`, SQLite kept in
memory between runs) and a subcommand (`assistant example-hello`)."""

from __future__ import annotations

from pathlib import Path

from assistant.plugins import Hints, Language, PluginTool, hookimpl

DRIVER = Path(__file__).resolve().parent / "sql_driver.py"


def word_count(text: str) -> str:
    return f"{len(text.split())} words"


@hookimpl
def register_tools(register):
    register(PluginTool(
        "word_count", word_count, "Count the words in a text.",
        {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        Hints(read_only=True)))


@hookimpl
def register_languages(register):
    register(Language(name="sql", program=None, options=("-u",), driver=str(DRIVER),
                      code_in_file=False, state="tables", missing=""))


def hello(argv: list[str]) -> int:
    print("hello from the example plugin", *argv)
    return 0


@hookimpl
def register_commands(register):
    register("example-hello", "say hello: example-hello [NAME]", hello)


class Beep:
    """A speech engine that says each word as a short tone (for the tests)."""

    name = "beep"

    def __init__(self, voice: str) -> None:
        self.pitch = float(voice or 440)

    def synthesize(self, text: str):
        import numpy as np

        rate = 16000
        seconds = 0.1 * len(text.split())
        times = np.arange(int(rate * seconds), dtype=np.float32) / rate
        return (0.3 * np.sin(2 * np.pi * self.pitch * times)).astype(np.float32), rate


class Seconds:
    """A recogniser that hears only how long the sound is (for the tests)."""

    def transcribe(self, samples) -> str:
        return f"{len(samples) / 16000:.1f} seconds of sound"


@hookimpl
def register_tts_engines(register):
    register("beep", Beep)


@hookimpl
def register_stt_engines(register):
    register("seconds", Seconds)
