"""Code that cannot write is previewed in a world of read-only mounts: the reading of its
text, and real previews in real namespaces, where a misreading still reaches no file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from assistant.events import RunEnd
from assistant.runtime import Runtimes
from assistant.whatif.preview import finished, plan_for
from assistant.whatif.pure import Reading, reading
from tests.support.folders import contents
from tests.unit.whatif.test_whatif_preview import Whatif

COMPUTING = {
    "print(1)": Reading(("print",), ()),
    "x = 6 * 7\nprint(f'{x:>4}', sep=',')": Reading(("print",), ()),
    "import math, json\nprint(json.dumps([math.sqrt(2)]))": Reading(("print",), ("json", "math")),
    "from datetime import date\nprint(date(2024, 1, 1).isoformat())": Reading(
        ("print",), ("datetime",)),
    "if len('ab') > 1:\n    y = 1\nelse:\n    y = 2\nprint(y)": Reading(("len", "print"), ()),
    "d = {}\nd['a'] = 1\nd['a'] += 1\nprint(sorted(k for k in d))": Reading(
        ("print", "sorted"), ()),
    "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print(e)": Reading(
        ("ZeroDivisionError", "print"), ()),
}
MAY_WRITE = [
    "import os\nprint(1)",  # a module that writes
    "open('a.txt', 'w').write('x')",
    "print(x)",  # an earlier run's x, which may be a file
    "for i in range(3):\n    y = i\nprint(y)",  # y bound only if the loop ran
    "x += 1",
    "print(1, file=log)",
    "import datetime\ndatetime.sys.modules['os'].remove('a')",  # a module in a module
    "from json import codecs",
    "import json as j\nk = j\nk.codecs.open('a', 'w')",  # a module as a value
    "if len('a') > 5:\n    import math\nmath.floor(1)",  # the live math unless imported
    "import json\nif len('a') > 5:\n    json = 1\njson.codecs.open('a', 'w')",
    "g = (i for i in [])\nprint(g.gi_frame.f_globals)",  # the runtime's globals
    "print((1).__class__)",
    "import string\nprint(string.Formatter())",  # looks attributes up by name
    "def f():\n    pass",
    "getattr(1, 'real')",
    "import subprocess",
    "x.y = 1",
    "print(",  # does not parse
]


@pytest.mark.parametrize("code", list(COMPUTING))
def test_code_that_only_computes_is_read_as_unable_to_write(code: str) -> None:
    assert reading(code) == COMPUTING[code]


@pytest.mark.parametrize("code", MAY_WRITE)
def test_code_with_a_way_to_write_or_to_reach_one_is_read_as_may_write(code: str) -> None:
    assert reading(code) is None


def test_computing_code_is_previewed_with_its_output_and_no_change(
        folder: Path, whatif: Whatif) -> None:
    before = contents(folder)
    preview = whatif("python", "import math\nx = 6 * 7\nprint(x, math.floor(2.5))")
    assert preview.problem == ""
    assert preview.effect.output == "42 2\n" and preview.effect.exit_status == 0
    assert preview.effect.summary == "Changes no files." and preview.sealed
    assert contents(folder) == before


def test_a_write_a_misreading_let_through_fails_there_and_reaches_no_file(
        folder: Path, runtimes: Runtimes) -> None:
    """The world of read-only mounts is the safety, not the reading: given the plan of
    code read as pure, a write is refused, where the full world would have shown it."""
    before = contents(folder)
    code = "open('notes.txt', 'w').write('overwritten')\nprint('wrote')"
    outputs = {}
    for kind in ("read-only", "full"):
        with tempfile.TemporaryDirectory() as scratch:
            plan = plan_for(str(folder), os.path.join(scratch, "report.json"), (), "python")
            if kind == "read-only":
                plan["pure"] = {"builtins": ["print"], "modules": []}  # open missed
            *_, end = runtimes.run("python", code, whatif=plan)
            assert isinstance(end, RunEnd)
            outputs[kind] = (end.exit_status, end.output,
                             Path(scratch, "report.json").read_text())
    status, output, report = outputs["read-only"]
    assert status == 1 and "Read-only file system" in output and '"changes": []' in report
    status, output, report = outputs["full"]
    assert status == 0 and "wrote" in output and "notes.txt" in report
    assert contents(folder) == before


def test_a_builtin_an_earlier_run_rebound_is_previewed_in_the_full_world(
        folder: Path, runtimes: Runtimes, whatif: Whatif) -> None:
    list(runtimes.run("python", "def print(*args):\n    open('made.txt', 'w').write('x')"))
    seen = whatif("python", "print(1)")
    assert seen.effect.created == ("made.txt",) and not seen.sealed
    assert not (folder / "made.txt").exists()


def test_a_hidden_file_is_empty_in_the_read_only_world_too(
        folder: Path, runtimes: Runtimes, tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text("s3cret")
    code = f"print(repr(open({str(secret)!r}).read()))"  # open, as a misreading would let by
    with tempfile.TemporaryDirectory() as scratch:
        plan = plan_for(str(folder), os.path.join(scratch, "report.json"), (str(secret),),
                        "python")
        plan["pure"] = {"builtins": ["print", "repr"], "modules": []}
        *_, end = runtimes.run("python", code, whatif=plan)
    assert isinstance(end, RunEnd) and end.output == "''\n"


def test_computing_code_is_previewed_under_the_guard(folder: Path, isolated_dirs: Path) -> None:
    from assistant.runtime.sandbox import Sandbox
    from assistant.whatif.preview import preview

    guard = Sandbox(guard=True, protected=(str(isolated_dirs / "config"),))
    if guard.problem():
        pytest.skip(guard.problem())
    with Runtimes(timeout=20.0, cwd=str(folder), sandbox=guard) as runtimes:
        effect = finished(preview(runtimes, "python", "print(sum(range(5)))",
                                  hidden=(str(isolated_dirs / "config"),))).effect
    assert effect.output == "10\n" and effect.summary == "Changes no files."
