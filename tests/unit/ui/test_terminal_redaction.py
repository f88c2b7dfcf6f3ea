"""Secrets a run prints are masked on screen too, also when they arrive split across chunks."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from assistant.events import OutputChunk, RunEnd
from assistant.safety.redact import Redactor
from assistant.ui.terminal import HOLD, Terminal

CANARY = "sk-canary-0123456789abcdefABCDEF"
KNOWN = "hunter2-not-a-key-shape-4242"


def screen(chunks: list[tuple[str, str]]) -> tuple[str, list[str]]:
    """Show the chunks then the run's end; the whole screen and what each chunk showed."""
    out = io.StringIO()
    term = Terminal(Console(file=out, width=400, color_system=None),
                    redact=Redactor([KNOWN]))
    after = []
    for stream, text in chunks:
        term.show(OutputChunk("p1", stream, text))  # type: ignore[arg-type]
        after.append(out.getvalue())
    term.show(RunEnd("p1", 0, "", 0.1))
    return out.getvalue(), after


@pytest.mark.parametrize("cut", [1, 3, 10, len(CANARY) - 1])
def test_a_key_split_across_two_chunks_is_masked(cut: int) -> None:
    shown, _ = screen([("stdout", f"key is {CANARY[:cut]}"), ("stdout", f"{CANARY[cut:]} ok\n")])
    assert CANARY not in shown and CANARY[:12] not in shown
    assert "key is [redacted] ok" in shown


def test_known_secret_split_in_three_and_on_stderr() -> None:
    parts = [KNOWN[:5], KNOWN[5:14], KNOWN[14:] + "\n"]
    shown, _ = screen([("stderr", "pw=" + parts[0]), ("stderr", parts[1]), ("stderr", parts[2])])
    assert KNOWN not in shown and "pw=[redacted]" in shown


def test_words_show_at_once_and_a_trailing_word_when_the_run_ends() -> None:
    shown, after = screen([("stdout", "Enter a name: "), ("stdout", "partial")])
    assert after[0].endswith("Enter a name: ")  # a prompt is not held back
    assert "partial" not in after[1]
    assert "Enter a name: partial" in shown


def test_a_stream_switch_releases_the_held_word_in_order() -> None:
    shown, _ = screen([("stdout", "one"), ("stderr", "two\n"), ("stdout", "three\n")])
    assert shown.index("one") < shown.index("two") < shown.index("three")


def test_a_long_line_without_spaces_is_not_held_forever() -> None:
    _, after = screen([("stdout", "x" * (HOLD * 4))])
    assert after[0].count("x") == HOLD * 3


def test_the_environment_canary_is_masked_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "canary-value-without-key-shape")
    out = io.StringIO()
    term = Terminal(Console(file=out, width=200, color_system=None))
    for text in ("the key: canary-val", "ue-without-key-shape\n"):
        term.show(OutputChunk("p1", "stdout", text))
    assert "the key: [redacted]" in out.getvalue() and "canary-val" not in out.getvalue()
