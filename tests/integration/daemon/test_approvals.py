"""The daemon's approver with the real popup on Xvfb: the first human answer wins, whichever
channel gives it (popup, tray, voice); high risk needs more than a spoken yes; auto-run
covers only low risk."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from assistant import Assistant
from assistant.config import load_settings
from assistant.daemon.approvals import HIGH_RISK_BY_VOICE, Approvals
from assistant.daemon.controller import Daemon
from assistant.daemon.notices import Notifier
from assistant.events import Approval, Effect, Proposal
from assistant.ui.popup import Popup
from tests.support.display import xdotool


@pytest.fixture(scope="module")
def session() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool


def shown(popup: Popup, proposal: Proposal) -> bool:
    return popup.call(lambda w: w.visible() and w.run_button.winfo_ismapped()
                      and w.code_text() == proposal.code)


def ask(pool: ThreadPoolExecutor, approvals: Approvals, popup: Popup,
        proposal: Proposal) -> Future[Approval]:
    future = pool.submit(approvals, proposal)
    deadline = time.monotonic() + 5
    while not shown(popup, proposal):
        assert time.monotonic() < deadline, f"the popup does not show {proposal.id}"
        time.sleep(0.05)
    assert approvals.pending == proposal
    return future


def click_run(popup: Popup) -> None:
    x, y = popup.call(lambda w: (w.run_button.winfo_rootx() + w.run_button.winfo_width() // 2,
                                 w.run_button.winfo_rooty() + w.run_button.winfo_height() // 2))
    xdotool("mousemove", str(x), str(y), "click", "1")


def test_the_tray_answers_first_and_a_later_click_changes_nothing(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    said: list[str] = []
    approvals = Approvals(popup, said.append)
    approvals.plan = "Listing your files.\n"
    proposal = Proposal("tray-first", "shell", "ls -l ~/Downloads")
    future = ask(session, approvals, popup, proposal)
    assert said == ["Listing your files. Shall I run it?"]
    assert approvals.summary == "Listing your files."  # the header and the tray's item
    assert approvals.answer(False, "tray menu")
    decision = future.result(5)
    assert decision == Approval("tray-first", False, "user",
                                reason="cancelled from the tray menu")
    assert approvals.pending is None and not approvals.answer(True, "tray menu")
    assert approvals.voice_reply("yes") == ""


def test_a_click_answers_first_and_the_voice_reply_comes_too_late(
        popup: Popup, session: ThreadPoolExecutor) -> None:
    approvals = Approvals(popup, lambda text: None)
    proposal = Proposal("click-first", "python", "print(1)")
    future = ask(session, approvals, popup, proposal)
    click_run(popup)
    assert future.result(5) == Approval("click-first", True, "user", "print(1)")
    assert approvals.voice_reply("no") == ""


def test_voice_replies_approve_decline_and_revise(popup: Popup,
                                                  session: ThreadPoolExecutor) -> None:
    approvals = Approvals(popup, lambda text: None)
    for reply, approved, reason in (("yes, go ahead", True, "approved by voice"),
                                    ("no", False, "the user said no"),
                                    ("use the documents folder", False,
                                     "the user wants this instead: use the documents folder")):
        proposal = Proposal(f"voice-{approved}-{len(reason)}", "shell", "ls ~/Downloads")
        future = ask(session, approvals, popup, proposal)
        approvals.voice_reply(reply)
        decision = future.result(5)
        assert (decision.approved, decision.decided_by, decision.reason) == (
            approved, "user", reason)


def test_read_the_code_reads_it_and_the_proposal_still_waits(popup: Popup,
                                                             session: ThreadPoolExecutor) -> None:
    said: list[str] = []
    approvals = Approvals(popup, said.append)
    approvals.plan = "I'll show the free space. It uses df.\n```shell\ndf -h\n```"
    proposal = Proposal("read", "shell", "df -h")
    future = ask(session, approvals, popup, proposal)
    assert said == ["I'll show the free space. Shall I run it?"]
    assert approvals.voice_reply("Read me the code.") == "read"
    assert said[-1] == "Run shell: show free disk space, readable sizes. Shall I run it?"
    assert not future.done() and shown(popup, proposal)
    approvals.voice_reply("no")
    assert not future.result(5).approved


def test_high_risk_is_not_approved_by_voice_alone(popup: Popup,
                                                  session: ThreadPoolExecutor) -> None:
    said: list[str] = []
    approvals = Approvals(popup, said.append)
    proposal = Proposal("high", "shell", "sudo reboot", risk="high")
    future = ask(session, approvals, popup, proposal)
    assert approvals.voice_reply("yes") == "confirm"
    assert said[-1] == HIGH_RISK_BY_VOICE
    assert not future.done() and shown(popup, proposal)
    approvals.answer(True, "tray menu")
    assert future.result(5).approved
    approvals.voice_approves_high_risk = True
    future = ask(session, approvals, popup, Proposal("high-2", "shell", "sudo reboot",
                                                     risk="high"))
    assert approvals.voice_reply("yes") == "approve"
    assert future.result(5).approved


def test_auto_run_from_the_tray_covers_low_risk_only(popup: Popup,
                                                     session: ThreadPoolExecutor) -> None:
    daemon = Daemon(load_settings({"model": "openai/x", "api_key": "test", "journal": False}),
                    popup=popup, make_assistant=Assistant, transcriber=None, recorder=None,
                    notifier=Notifier(lambda line: None), log=lambda line: None)
    try:
        policy = daemon.assistant.policy
        shown = Effect(exit_status=0, output="1\n", summary="Changes no files.")
        low = policy.proposal("low", "python", "print(1)", shown)  # as its preview showed
        medium = policy.proposal("medium", "shell", "rm -rf ~/Documents/old")
        assert not daemon.auto_approval
        daemon.set_auto_approval(True)
        assert daemon.auto_approval and policy.mode == "auto"
        assert policy.decide(low) == Approval("low", True, "policy", "print(1)",
                                              reason="auto-run is on and the risk is low")
        future = session.submit(policy.decide, medium)
        deadline = time.monotonic() + 5
        while daemon.pending is None:
            assert time.monotonic() < deadline, "medium risk was not asked"
            time.sleep(0.02)
        assert daemon.pending.startswith("Run shell: delete")
        daemon.cancel_pending()
        assert not future.result(5).approved
        daemon.set_auto_approval(False)
        assert policy.mode == "ask"
    finally:
        daemon.close()
