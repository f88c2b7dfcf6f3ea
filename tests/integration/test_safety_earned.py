"""Under approval = "auto", a run goes unasked only when its preview and its known
programs show it harmless; what it would leave behind asks, and never fires later.

Real loop, real runtimes and real previews, against the scripted model server.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from assistant import Assistant
from assistant.events import Approval, Proposal, RunEnd
from assistant.whatif.probe import problem
from tests.support.llm_server import LLMServer, text, tool_call


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder, the test's own (beside its config and data folders, whose
    guard leaves entries directly in tmp_path read-only to a preview)."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def make(server: LLMServer, folder: Path, **kwargs: object) -> Assistant:
    if problem():
        pytest.skip(problem())
    assert Path.cwd() == folder
    return Assistant(model="openai/gpt-4o-mini", api_base=server.openai_url, api_key="k",
                     code_style="tools", approval="auto", **kwargs)


def decisions(events: list[object]) -> list[Approval]:
    return [e for e in events if isinstance(e, Approval)]


@pytest.fixture
def documents(tmp_path: Path) -> Path:
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "thesis.txt").write_text("years of work\n")
    return folder


def test_a_timer_that_deletes_later_asks_and_never_fires(server: LLMServer, work: Path,
                                                         documents: Path) -> None:
    code = ("import threading, shutil\n"
            f"threading.Timer(1.0, shutil.rmtree, [{str(documents)!r}]).start()\n")
    server.add(tool_call("python", code), tool_call("python", "import time\ntime.sleep(2.5)"),
               text("Done."))
    with make(server, work) as assistant:
        events = list(assistant.turn("tidy up later"))
        time.sleep(2.0)  # the runtime lives on: a leftover timer would have fired by now
        assert documents.exists()
    first = decisions(events)[0]
    assert not first.approved
    assert (documents / "thesis.txt").read_text() == "years of work\n"


def test_a_timer_a_person_lets_run_is_stopped_when_its_run_ends(
        server: LLMServer, work: Path, documents: Path) -> None:
    code = ("import threading, shutil\n"
            f"threading.Timer(1.0, shutil.rmtree, [{str(documents)!r}]).start()\n")
    server.add(tool_call("python", code), text("Done."))
    shown: list[Proposal] = []

    def person(proposal: Proposal) -> Approval:
        shown.append(proposal)
        return Approval(proposal.id, True, "user", proposal.code)

    with make(server, work, approver=person) as assistant:
        events = list(assistant.turn("tidy up later"))
        time.sleep(2.0)
        assert documents.exists()
    assert shown and shown[0].risk == "medium"
    end = next(e for e in events if isinstance(e, RunEnd))
    assert "stopped what the run left to run later: a timer (shutil.rmtree)" in end.output


def test_an_exit_hook_is_named_by_the_preview_and_asks(server: LLMServer, work: Path,
                                                       documents: Path) -> None:
    code = f"import atexit, shutil\natexit.register(shutil.rmtree, {str(documents)!r})\n"
    server.add(tool_call("python", code), text("Done."))
    with make(server, work) as assistant:
        events = list(assistant.turn("clean at exit"))
    proposal = next(e for e in events if isinstance(e, Proposal))
    assert proposal.effect is not None
    assert any("an exit hook (shutil.rmtree)" in why for why in proposal.effect.unpreviewable)
    assert not decisions(events)[0].approved
    assert documents.exists()


def test_a_shell_background_job_asks(server: LLMServer, work: Path) -> None:
    server.add(tool_call("shell", "sleep 5 && echo late > later.txt &"), text("Done."))
    with make(server, work) as assistant:
        events = list(assistant.turn("write it later"))
    decision = decisions(events)[0]
    assert not decision.approved and "leaves processes running" in decision.reason
    assert not (work / "later.txt").exists()


def test_an_unknown_program_asks_and_a_known_one_runs(server: LLMServer, work: Path) -> None:
    (work / "notes.txt").write_text("a\nb\n")
    server.add(tool_call("shell", "perl -MFile::Path=remove_tree -e 'remove_tree(\"notes.txt\")'"),
               tool_call("shell", "wc -l notes.txt"), text("Done."))
    with make(server, work) as assistant:
        events = list(assistant.turn("count the lines"))
    unknown, known = decisions(events)
    assert not unknown.approved and "perl, which is not on the list" in unknown.reason
    assert known.approved and known.decided_by == "policy"
    assert (work / "notes.txt").exists()


def test_an_interpreter_inside_a_string_asks(server: LLMServer, work: Path) -> None:
    server.add(tool_call("shell", "awk 'BEGIN{system(\"touch made.txt\")}'"), text("Done."))
    with make(server, work) as assistant:
        events = list(assistant.turn("make it"))
    decision = decisions(events)[0]
    assert not decision.approved and "awk with `system(`" in decision.reason
    assert not (work / "made.txt").exists()


def test_a_background_job_a_person_lets_run_is_said_at_the_end(server: LLMServer,
                                                               work: Path) -> None:
    server.add(tool_call("shell", "sleep 30 &"), text("Done."))

    def person(proposal: Proposal) -> Approval:
        return Approval(proposal.id, True, "user", proposal.code)

    with make(server, work, approver=person) as assistant:
        events = list(assistant.turn("wait in the background"))
    end = next(e for e in events if isinstance(e, RunEnd))
    assert "left running in the background: sleep (" in end.output


def test_a_run_whose_preview_failed_asks_rather_than_running_unasked(
        server: LLMServer, work: Path) -> None:
    """With the check that sends a failed preview back off, the policy is what stops it:
    a failure shows what the code does when it fails, not where it works."""
    (work / "notes.txt").write_text("keep\n")
    server.add(tool_call("shell", "mv notes.txt archive/2026/notes.txt"), text("Done."))
    with make(server, work, checks_off="preview.failed") as assistant:
        events = list(assistant.turn("archive my notes"))
    decision = decisions(events)[0]
    assert not decision.approved and "its preview failed (exit status 1)" in decision.reason
    assert (work / "notes.txt").read_text() == "keep\n"


def test_a_run_that_turns_on_auto_approval_in_the_config_is_high_and_never_runs(
        server: LLMServer, work: Path, isolated_dirs: Path) -> None:
    """The config's path is read at run time, so only the preview can see whose it is."""
    config = isolated_dirs / "config" / "config.toml"
    config.write_text("# my settings\n")
    (work / "target").write_text(f"{config}\n")
    server.add(tool_call("shell", "echo 'approval = \"auto\"' >> \"$(cat target)\""),
               text("Done."))
    with make(server, work) as assistant:
        events = list(assistant.turn("set it up"))
    proposal = next(e for e in events if isinstance(e, Proposal))
    assert proposal.risk == "high"
    assert any(r.startswith("self-tamper:") and "the assistant's own" in r
               for r in proposal.reasons)
    assert not decisions(events)[0].approved
    assert config.read_text() == "# my settings\n"
