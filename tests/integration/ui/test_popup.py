"""The confirmation popup on a real X display, driven by real clicks and keys (xdotool).

Tk runs on a thread of its own, as in the daemon; the test thread plays the session,
asking for approvals and feeding events. Widgets are found through Tk itself.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from assistant import Assistant
from assistant.events import Approval, OutputChunk, Proposal, RunEnd, TurnEnd
from assistant.ui.popup import CLOSE_AFTER, Popup
from assistant.ui.popup_widgets import PopupWindow
from tests.support.display import wait_until, xdotool
from tests.support.llm_server import LLMServer, text, tool_call

ROOT = Path(__file__).resolve().parents[3]
CODE = "import os\nprint(os.getcwd())"


@pytest.fixture(scope="module")
def session() -> Iterator[ThreadPoolExecutor]:
    """Threads that ask for approvals, as session threads do."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield pool


def ask(pool: ThreadPoolExecutor, popup: Popup, proposal: Proposal,
        summary: str = "") -> Future[Approval]:
    """Ask from a session thread and wait until the popup shows this proposal."""
    future = pool.submit(popup.approve, proposal, summary)
    wait_until(lambda: popup.call(lambda w: w.visible() and w.run_button.winfo_ismapped()
                                  and w.code_text() == proposal.code),
               f"the popup shows {proposal.id}")
    return future


def centre(popup: Popup, widget: Callable[[PopupWindow], Any]) -> tuple[int, int]:
    def where(window: PopupWindow) -> tuple[int, int]:
        found = widget(window)
        return (found.winfo_rootx() + found.winfo_width() // 2,
                found.winfo_rooty() + found.winfo_height() // 2)

    return popup.call(where)


def click(popup: Popup, widget: Callable[[PopupWindow], Any]) -> None:
    x, y = centre(popup, widget)
    xdotool("mousemove", str(x), str(y), "click", "1")


def press(popup: Popup, *keys: str) -> None:
    """Keys to the popup: a click on its summary first gives it the focus (no window manager)."""
    click(popup, lambda w: w.summary)
    xdotool("key", *keys)


def proposal(name: str, code: str = CODE, **extra: Any) -> Proposal:
    return Proposal(id=name, language="python", code=code, **extra)


def test_run_by_click_approves_the_code_as_shown(popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("click-run"), "I will print the current folder")
    assert popup.call(lambda w: w.summary.cget("text")) == "I will print the current folder"
    click(popup, lambda w: w.run_button)
    assert future.result(5) == Approval("click-run", True, "user", CODE)


def test_enter_approves(popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("enter-run"))
    press(popup, "Return")
    assert future.result(5) == Approval("enter-run", True, "user", CODE)


def test_cancel_by_click_declines_and_hides(popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("click-cancel"))
    click(popup, lambda w: w.cancel_button)
    approval = future.result(5)
    assert (approval.proposal_id, approval.approved, approval.decided_by) == (
        "click-cancel", False, "user")
    wait_until(lambda: not popup.call(lambda w: w.visible()), "the popup hides after Cancel")


def test_escape_declines(popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("escape"))
    press(popup, "Escape")
    approval = future.result(5)
    assert (approval.proposal_id, approval.approved) == ("escape", False)


def test_edit_then_run_returns_the_edited_code(popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("edit"))
    click(popup, lambda w: w.edit_button)
    wait_until(lambda: popup.call(lambda w: w.editing), "Edit makes the code editable")
    # Enter inside the code being edited is a new line, not a Run.
    xdotool("key", "ctrl+End", "Return", "type", "print('edited')")
    wait_until(lambda: popup.call(lambda w: w.code_text().endswith("print('edited')")),
               "the typed line is in the code")
    assert not future.done()
    click(popup, lambda w: w.run_button)
    approval = future.result(5)
    assert approval == Approval("edit", True, "user", CODE + "\nprint('edited')",
                                reason="edited")


def test_risk_reasons_and_highlighting_are_shown(popup: Popup,
                                                 session: ThreadPoolExecutor) -> None:
    reasons = ("deletes files: rm -rf ~/old", "reaches the network")
    future = ask(session, popup, proposal("risky", "import shutil\nshutil.rmtree('x')",
                                          risk="high", reasons=reasons))
    meta, shown, keyword_tags = popup.call(lambda w: (
        w.meta.cget("text"), w.reasons.cget("text"), w.code.tag_names("1.0")))
    assert meta == "python · risk: high"
    assert shown.splitlines() == [f"• {reason}" for reason in reasons]
    assert any(tag.startswith("Token.Keyword") for tag in keyword_tags), keyword_tags
    press(popup, "Escape")
    assert not future.result(5).approved


def test_output_and_answer_appear_then_it_closes(popup: Popup,
                                                  session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("output"))
    assert popup.call(lambda w: w.root.title()) == "assistant: run this?"
    click(popup, lambda w: w.run_button)
    assert future.result(5).approved
    wait_until(lambda: popup.call(lambda w: w.root.title()) == "assistant: running",
               "the title no longer asks once the run is approved")
    popup.show(OutputChunk("output", "stdout", "/home/user\n"))
    popup.show(OutputChunk("output", "stderr", "a warning\n"))
    popup.show(RunEnd("output", 0, "/home/user\n", 0.25))
    wait_until(lambda: "done · 0.25 s" in popup.call(lambda w: w.output_text()),
               "the run's end is shown")
    output, stderr = popup.call(lambda w: (w.output_text(), w.output.tag_ranges("stderr")))
    assert output.startswith("/home/user\na warning\n")
    assert stderr, "stderr is marked apart"
    assert popup.call(lambda w: w.output.winfo_ismapped() and w.visible())
    popup.show(TurnEnd("You are in /home/user."))
    wait_until(lambda: popup.call(lambda w: w.answer.cget("text")) == "You are in /home/user.",
               "the final answer is shown")
    assert popup.call(lambda w: w.root.title()) == "assistant: answer"
    wait_until(lambda: not popup.call(lambda w: w.visible()), "the popup closes after the answer",
               timeout=CLOSE_AFTER + 3)


def test_two_proposals_queue_in_order(popup: Popup, session: ThreadPoolExecutor) -> None:
    first = ask(session, popup, proposal("first", "print(1)"))
    second = session.submit(popup.approve, proposal("second", "print(2)"))
    wait_until(lambda: popup.call(lambda w: w.waiting.cget("text")) == "1 more waiting",
               "the second proposal waits behind the first")
    assert popup.call(lambda w: w.code_text()) == "print(1)"
    click(popup, lambda w: w.run_button)
    assert first.result(5) == Approval("first", True, "user", "print(1)")
    wait_until(lambda: popup.call(lambda w: w.code_text() == "print(2)"
                                  and w.run_button.winfo_ismapped()),
               "the second proposal follows")
    assert not second.done()
    press(popup, "Escape")
    assert (second.result(5).proposal_id, second.result(5).approved) == ("second", False)


def test_it_never_decides_or_closes_on_its_own(popup: Popup,
                                               session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("patient"))
    time.sleep(3)
    assert not future.done()
    assert popup.call(lambda w: w.visible())
    press(popup, "Escape")
    assert not future.result(5).approved


def test_it_appears_on_top_near_the_bottom_right(popup: Popup,
                                                 session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("placed"))
    right, bottom, width, height, topmost = popup.call(lambda w: (
        w.root.winfo_rootx() + w.root.winfo_width(), w.root.winfo_rooty() + w.root.winfo_height(),
        w.root.winfo_screenwidth(), w.root.winfo_screenheight(), w.root.attributes("-topmost")))
    assert width - 100 < right <= width and height - 150 < bottom <= height
    assert topmost
    press(popup, "Escape")
    assert not future.result(5).approved


def test_it_is_placed_before_it_is_mapped(popup: Popup, session: ThreadPoolExecutor) -> None:
    """The first popup after start opened at the top-left corner, then moved."""
    mapped: list[tuple[int, int]] = []

    def record(event: Any) -> None:
        if event.widget is event.widget.winfo_toplevel():
            mapped.append((event.widget.winfo_rootx(), event.widget.winfo_rooty()))

    def forget_the_place(window: PopupWindow) -> None:
        window.root.geometry("+0+0")  # where a window that was never placed opens
        window.root.bind("<Map>", record, add="+")

    popup.call(forget_the_place)
    future = ask(session, popup, proposal("mapped"))
    placed = popup.call(lambda w: (w.root.winfo_rootx(), w.root.winfo_rooty()))
    press(popup, "Escape")
    assert not future.result(5).approved
    assert mapped == [placed] and placed != (0, 0), (mapped, placed)


def test_stopping_declines_what_waits(display: str, session: ThreadPoolExecutor) -> None:
    other = Popup()
    thread = threading.Thread(target=other.run, name="tk-other", daemon=True)
    thread.start()
    assert other.wait_ready()
    future = ask(session, other, proposal("left"))
    other.stop()
    thread.join(10)
    assert future.result(5) == Approval("left", False, "caller", reason="the popup was closed")
    assert not other.approve(proposal("late")).approved


def test_importing_the_popup_loads_no_tk() -> None:
    script = "import sys, assistant.ui.popup; print('tkinter' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, timeout=60, cwd=ROOT)
    assert found.stdout.strip() == "False"


def test_a_decision_from_elsewhere_answers_the_shown_proposal(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    future = ask(session, popup, proposal("spoken"))
    said = Approval("spoken", True, "user", CODE, reason="said yes")
    popup.resolve(said)
    assert future.result(5) == said
    wait_until(lambda: popup.call(lambda w: w.output.winfo_ismapped()
                                  and not w.run_button.winfo_ismapped()),
               "the popup turns to the run's output")


def test_a_whole_turn_with_the_popup_as_approver(popup: Popup, session: ThreadPoolExecutor,
                                                 server: LLMServer, tmp_path: Path) -> None:
    made = tmp_path / "reports"
    server.add(tool_call("shell", f"mkdir {made} && echo made it"), text("The folder is there."))

    def turn() -> None:
        with Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                       code_style="tools", approver=popup.approve) as bot:
            for event in bot.turn("make a folder called reports"):
                popup.show(event)

    done = session.submit(turn)
    # The first turn in a process imports litellm, which takes seconds on a busy machine.
    wait_until(lambda: done.done() or popup.call(
        lambda w: w.visible() and w.run_button.winfo_ismapped() and "mkdir" in w.code_text()),
        "the proposal is shown", timeout=40)
    assert not done.done(), done.exception()
    assert not made.exists()
    click(popup, lambda w: w.run_button)
    done.result(30)
    assert made.is_dir()
    wait_until(lambda: popup.call(lambda w: w.answer.cget("text")) == "The folder is there.",
               "the final answer is shown")
    assert popup.call(lambda w: w.output_text()).startswith("made it\n")
