"""Desktop tasks through the task runner: a display of their own (Xvfb, openbox, a D-Bus
session, the AT-SPI bus), the real zenity dialog, our assistant in its own process against
the scripted model, and the check reading what zenity reported. A right reply passes; a
reply that presses the other button fails, whatever the words say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.tasks import data as tasks_data
from benchmarks.tasks import desktop as tasks_desktop
from benchmarks.tasks import run as tasks_run
from tests.integration.conftest import MODEL
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.require import lacking

ROOT = Path(__file__).resolve().parents[2]


def desktop_task(name: str) -> dict[str, Any]:
    task = next(t for t in tasks_data.load("desktop") if t["name"] == name)
    reason = tasks_desktop.missing(task["desktop"])
    if reason:
        lacking(reason)
    return task


def run(task: dict[str, Any], server: LLMServer, tmp_path: Path) -> tasks_run.Outcome:
    """The task run as `python -m benchmarks.tasks --systems ours` runs it, on the scripted
    model, whose reply decides: a command is not read without it (screen.command off)."""
    log = tmp_path / "server.log"
    log.write_text("")
    config = {"settings": {"model": MODEL, "api_base": server.openai_url, "api_key": "k",
                           "code_style": "tools", "checks_off": "screen.command"},
              "pythonpath": str(ROOT), "limit_s": 90}
    return tasks_run.run_task(task, "ours", config, tasks_run.ServerLog(log))


def test_a_click_on_the_asked_button_passes_as_the_dialog_reports_it(
        server: LLMServer, tmp_path: Path) -> None:
    task = desktop_task("question-yes")
    server.add(tool_call("python", 'computer.mouse.click("Yes")', text="Clicking Yes."))
    server.add(text("I clicked Yes."))
    outcome = run(task, server, tmp_path)
    assert any(r.get("exit_status") == 0 for r in outcome.log), outcome.log
    assert outcome.passed, (outcome.reason, outcome.log)


def test_a_click_on_the_other_button_fails_as_the_dialog_reports_it(
        server: LLMServer, tmp_path: Path) -> None:
    task = desktop_task("question-no")
    server.add(tool_call("python", 'computer.mouse.click("Yes")', text="Answering the dialog."))
    server.add(text("I said no to the dialog; your drafts are kept."))
    outcome = run(task, server, tmp_path)
    assert any(r.get("exit_status") == 0 for r in outcome.log), outcome.log
    assert not outcome.passed
    assert outcome.reason == "dialog exited 0, not 1"
    # the screen showed the dialog gone (rule screen.done): the turn ends in what was
    # pressed, never in the model's claim, which is not asked for
    assert "'Yes'" in outcome.answer and "drafts are kept" not in outcome.answer


def test_words_alone_leave_the_dialog_open_and_the_task_failed(
        server: LLMServer, tmp_path: Path) -> None:
    task = desktop_task("question-yes")
    server.add(text("I clicked Yes on the export dialog."))
    outcome = run(task, server, tmp_path)
    assert not outcome.passed
    assert outcome.reason == "dialog was still open when the turn ended"
