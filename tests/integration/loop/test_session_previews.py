"""A proposal is tried in a copy of the user's files before anyone is asked: code that fails
there goes back to the model with what it printed, the person is asked only about the code
that worked, and the failed try is one line (its code on demand, never streamed as words).
Through real litellm, the real what-if world and real runtimes; a preview that cannot
cover the run (the network) proves nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.events import (
    CodeDraft,
    Event,
    Proposal,
    RuleFired,
    RunEnd,
    TextDelta,
    Tried,
    TurnEnd,
)
from assistant.whatif.preview import problem
from tests.support.llm_server import LLMServer, Step, fenced, text
from tests.support.loop import make, told

pytestmark = pytest.mark.skipif(bool(problem()), reason=problem() or "previews work")


def asked(events: list[Event]) -> list[Proposal]:
    return [e for e in events if isinstance(e, Proposal)]


def fired(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.rule, e.action) for e in events if isinstance(e, RuleFired)]


def test_code_failing_in_its_preview_goes_back_and_only_the_fix_is_asked(
        server: LLMServer, work: Path) -> None:
    (work / "a.log").write_text("a")
    server.add(fenced("shell", "mkdir -p old && mv a.txt old/"),
               fenced("shell", "mkdir -p old && mv a.log old/"),
               text("Moved a.log into old/."))
    with make(server, "fenced") as a:
        events = list(a.turn("move the log file into a new folder called old"))
    proposals = asked(events)
    assert [p.code for p in proposals] == ["mkdir -p old && mv a.log old/"]
    assert proposals[0].effect is not None and proposals[0].effect.moved == (
        ("a.log", "old/a.log"),)
    tries = [e for e in events if isinstance(e, Tried)]
    assert len(tries) == 1 and tries[0].code == "mkdir -p old && mv a.txt old/"
    assert tries[0].text.startswith("Tried in a copy of your files: failed (")
    assert "a.txt" in tries[0].text and "\n" not in tries[0].text
    assert ("preview.failed", "refuse") in fired(events)
    # the model read the failure as the call's result, and nothing of it happened
    assert "it failed there" in told(server, 1) and "a.txt" in told(server, 1)
    assert [e.exit_status for e in events if isinstance(e, RunEnd)] == [0]
    assert (work / "old" / "a.log").read_text() == "a" and not (work / "a.log").exists()


def test_a_failed_try_is_never_streamed_as_words_and_the_words_before_it_are_at_once(
        server: LLMServer, work: Path) -> None:
    (work / "a.log").write_text("a")
    server.add(fenced("shell", "mkdir -p old && mv a.txt old/", before="I'll move it.",
                      after="It will be in old."),
               fenced("shell", "mkdir -p old && mv a.log old/", before="Again, right."),
               text("Moved a.log into old/."))
    with make(server, "fenced") as a:
        events = list(a.turn("move the log file into a new folder called old"))
    words = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert "mv a.txt" not in words and "mv a.log" not in words and "```" not in words
    assert "I'll move it." in words and "It will be in old." in words
    assert "Again, right." in words and "Moved a.log into old/." in words
    kinds = [type(e).__name__ for e in events]
    # the plan streamed before the code was written, the code as drafts, then one line
    first_draft = kinds.index("CodeDraft")
    assert "TextDelta" in kinds[:first_draft]
    drafts = [e.code for e in events if isinstance(e, CodeDraft)]
    assert drafts[-1] == "mkdir -p old && mv a.log old/" and len(drafts) > 2
    assert kinds.index("Tried") < kinds.index("Proposal")
    assert [p.code for p in asked(events)] == ["mkdir -p old && mv a.log old/"]


def test_after_two_failed_previews_the_person_decides(server: LLMServer, work: Path) -> None:
    failing = "cat missing.txt"
    server.add(fenced("shell", failing), fenced("shell", "cat missing2.txt"),
               fenced("shell", "cat missing3.txt"), text("There is no such file."),
               text("missing.txt does not exist."))  # an answer right after a failure goes back
    with make(server, "fenced") as a:
        events = list(a.turn("show me what missing.txt says"))
    assert [p.code for p in asked(events)] == ["cat missing3.txt"]
    assert fired(events).count(("preview.failed", "refuse")) == 2
    assert [e.exit_status for e in events if isinstance(e, RunEnd)] == [1]
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "missing.txt does not exist."


def test_a_later_block_of_the_same_reply_is_not_tried_after_a_failed_preview(
        server: LLMServer, work: Path) -> None:
    server.add(Step(text="```shell\ncd build\n```\n\n```shell\nrm -rf *\n```\n"),
               text("There is no build folder."), text("There is no build folder here."))
    (work / "keep.txt").write_text("k")
    with make(server, "fenced") as a:
        events = list(a.turn("clean the build folder"))
    assert asked(events) == []
    assert ("call.after_failure", "refuse") in fired(events)
    assert (work / "keep.txt").read_text() == "k"


def test_an_answer_guessed_after_a_failed_preview_goes_back_and_the_fix_runs(
        server: LLMServer, work: Path) -> None:
    (work / "expenses.csv").write_text("category,amount\nrent,900\ngroceries,412.50\n")
    wrong = "import csv\nrows = list(csv.DictReader(open('transactions.csv')))\nprint(rows)"
    right = ("import csv\nrows = list(csv.DictReader(open('expenses.csv')))\n"
             "print(max(rows, key=lambda r: float(r['amount']))['category'])")
    server.add(fenced("python", wrong), text("The category that cost the most is groceries."),
               fenced("python", right), text("Rent cost the most."))
    with make(server, "fenced") as a:
        events = list(a.turn("which category in expenses.csv cost the most?"))
    assert ("preview.failed", "refuse") in fired(events)
    assert ("answer.failed_last", "send_back") in fired(events)
    assert "Your last code never ran: it failed (exit status 1)" in told(server, 2)
    # what the folder holds went back with the failure, and the model named the file
    assert ("transactions.csv is not there. The working directory holds: expenses.csv."
            in told(server, 1))
    assert ("run.missing", "annotate") in fired(events)
    assert [p.code for p in asked(events)] == [right]
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.text == "Rent cost the most."


def test_a_change_that_changes_nothing_goes_back_once(server: LLMServer, work: Path) -> None:
    (work / "scans").mkdir()
    (work / "scans" / "report.pdf").write_text("%PDF")
    quiet = "import glob, shutil\nfor name in glob.glob('*.pdf'):\n    shutil.move(name, 'docs/')"
    server.add(fenced("python", quiet),
               fenced("python", "import os, shutil\nos.makedirs('docs', exist_ok=True)\n"
                                "shutil.move('scans/report.pdf', 'docs/')"),
               text("Moved report.pdf into docs/."))
    with make(server, "fenced") as a:
        events = list(a.turn("move the pdf files into docs"))
    assert len(asked(events)) == 1 and "makedirs" in asked(events)[0].code
    assert ("preview.unchanged", "refuse") in fired(events)
    assert "changed no file and printed nothing" in told(server, 1)
    assert (work / "docs" / "report.pdf").exists()


def test_a_filter_that_leaves_out_capitalised_files_goes_back_once_with_their_names(
        server: LLMServer, work: Path) -> None:
    (work / "a.pdf").write_text("a")
    (work / "Scan_001.PDF").write_text("scan")
    lower = ("import os, shutil\nos.makedirs('docs', exist_ok=True)\n"
             "for f in os.listdir('.'):\n    if f.endswith('.pdf'):\n"
             "        shutil.move(f, 'docs/')")
    fixed = lower.replace("f.endswith", "f.lower().endswith")
    server.add(fenced("python", lower), fenced("python", fixed),
               text("Moved a.pdf and Scan_001.PDF into docs/."))
    with make(server, "fenced") as a:
        events = list(a.turn("move the pdf files into docs"))
    assert [p.code for p in asked(events)] == [fixed]
    assert ("preview.case", "refuse") in fired(events)
    tries = [e for e in events if isinstance(e, Tried)]
    assert len(tries) == 1 and "Scan_001.PDF" in tries[0].text and "capitals" in tries[0].text
    assert "Scan_001.PDF" in told(server, 1) and "lower().endswith('.pdf')" in told(server, 1)
    assert sorted(p.name for p in (work / "docs").iterdir()) == ["Scan_001.PDF", "a.pdf"]


def test_deleting_every_copy_of_a_duplicate_goes_back_and_one_of_each_stays(
        server: LLMServer, work: Path) -> None:
    for name, content in {"report.pdf": "R", "report (1).pdf": "R", "notes.txt": "N"}.items():
        (work / name).write_text(content)
    by_bytes = ("import hashlib, os\nseen = set()\nfor name in sorted(os.listdir('.')):\n"
                "    digest = hashlib.sha256(open(name, 'rb').read()).hexdigest()\n"
                "    if digest in seen:\n        os.remove(name)\n    seen.add(digest)")
    server.add(fenced("shell", "find . -type f -exec rm {} \\;"), fenced("python", by_bytes),
               text("Deleted the extra copy of report.pdf."))
    with make(server, "fenced") as a:
        events = list(a.turn("Some files in here are duplicates. Delete the extra copies."))
    assert [p.code for p in asked(events)] == [by_bytes]
    assert ("preview.copies", "refuse") in fired(events)
    tries = [e for e in events if isinstance(e, Tried)]
    assert tries[0].text == ("Tried in a copy of your files: it would delete every copy of "
                             "report (1).pdf, report.pdf; the model was told.")
    assert "would delete every file with the contents of report (1).pdf" in told(server, 1)
    assert sorted(p.name for p in work.iterdir()) == ["notes.txt", "report (1).pdf"]


def test_a_dedupe_by_name_that_leaves_copies_is_sent_back_when_it_answers(
        server: LLMServer, work: Path) -> None:
    (work / "scans").mkdir()
    for name, content in {"a.pdf": "A", "a-copy.pdf": "A", "b.pdf": "B"}.items():
        (work / "scans" / name).write_text(content)
    by_name = ("import os\nnames = set()\nfor name in os.listdir('scans'):\n"
               "    if name in names:\n        os.remove('scans/' + name)\n    names.add(name)\n"
               "print('removed 0')")
    server.add(fenced("python", by_name), text("There were no duplicates: 0 removed."),
               fenced("shell", "rm scans/a-copy.pdf"), text("Removed 1 copy."))
    with make(server, "fenced") as a:
        events = list(a.turn("The scans folder has duplicate files. Get rid of the extra "
                             "copies, and tell me how many you removed."))
    assert ("answer.copies", "send_back") in fired(events)
    assert ("scans/a-copy.pdf, scans/a.pdf still hold the same contents, though the request "
            "asks for the copies to go.") in told(server, 2)
    assert sorted(p.name for p in (work / "scans").iterdir()) == ["a.pdf", "b.pdf"]
    assert isinstance(events[-1], TurnEnd) and events[-1].text == "Removed 1 copy."


def test_a_capitalised_file_left_out_again_is_asked_about_after_one_send_back(
        server: LLMServer, work: Path) -> None:
    (work / "a.jpg").write_text("a")
    (work / "B.JPG").write_text("b")
    code = "mkdir -p pics && mv *.jpg pics/"
    again = "mkdir -p pics; mv ./*.jpg pics/"
    server.add(fenced("shell", code), fenced("shell", again), text("Moved a.jpg."))
    with make(server, "fenced") as a:
        events = list(a.turn("move the jpg photos into pics"))
    assert [p.code for p in asked(events)] == [again]
    assert fired(events).count(("preview.case", "refuse")) == 1
    assert (work / "B.JPG").exists() and (work / "pics" / "a.jpg").exists()


def test_a_preview_that_could_not_cover_the_run_is_asked_as_before(
        server: LLMServer, work: Path) -> None:
    code = "curl -s http://127.0.0.1:9/ > page.html"
    server.add(fenced("shell", code), text("The page could not be fetched."))
    with make(server, "fenced") as a:
        events = list(a.turn("save the page at 127.0.0.1:9 as page.html"))
    assert [p.code for p in asked(events)] == [code]
    assert not [rule for rule, _ in fired(events) if rule.startswith("preview.")]


def test_the_same_failing_code_again_and_again_ends_the_turn_without_a_run(
        server: LLMServer, work: Path) -> None:
    server.add(*[fenced("python", "1/0") for _ in range(5)], text("Division by zero."))
    with make(server, "fenced") as a:
        events = list(a.turn("divide one by zero"))
    assert not [e for e in events if isinstance(e, RunEnd)]
    end = events[-1]
    assert isinstance(end, TurnEnd) and end.reason == "repeated_failure"
