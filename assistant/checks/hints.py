"""What a run's result means here, for the few cases small models misread again and again.

Each hint is one or two sentences joined to a run's result; it names the fix in the
words of the code that failed, since a small model copies a concrete line far better
than it applies a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from assistant.checks.requested import runner
from assistant.checks.rules import Rules
from assistant.events import RunEnd
from assistant.llm.results import fence
from assistant.runtime.packages import python_packages
from assistant.texts import text

# Names a missing-file hint lists from the working folder, at most.
LISTED = 8
NOTHING = text("hint.nothing")  # what an empty folder holds, in a hint
# An absolute path in code: quoted, or a shell word.
ABSOLUTE = re.compile(r"""(?:(?<=['"])|(?<![\w.~/$-]))(/[\w.-]+)(?:/[\w./-]*)?""")



def describe_run(  # noqa: PLR0913 - the run, then what the turn knows, all with defaults
        end: RunEnd, changes: str = "", folder: str = "", code: str = "",
        making: Sequence[str] = (), rules: Rules | None = None) -> str:
    """What the model reads about its run of `code` in `folder` (the runs' working
    directory; empty for this process's), in a turn asked to make the files `making`: how
    it ended, its output, what changed on disk, and what that means where small models
    misread it.

    Small models read a bare "(no output)" as someone's words, or as failure; the exit
    status first and the output fenced below make it plainly their own call's result.
    """
    if end.exit_status is None:
        status = text("results.unfinished")
    elif end.exit_status == 0:
        status = text("results.succeeded")
    else:
        status = text("results.failed").format(end.exit_status)
    output = (text("results.output").format(fence(end.output)) if end.output.strip()
              else text("results.output_none"))
    parts = (status, output, changes, hint(end, Path(folder), code, making, rules))
    return "\n".join(part for part in parts if part)

def hint(end: RunEnd, folder: Path, code: str = "", making: Sequence[str] = (),
         rules: Rules | None = None) -> str:
    """The hint for this run of `code`, in a turn asked to make the files `making`; or "".
    Each hint is a rule (hint.NAME) of `rules`, the turn's: one that is off is passed
    over, and the one given fires."""
    out = end.output
    candidates: tuple[tuple[str, Callable[[], str]], ...]
    if end.exit_status != 0:
        candidates = (
            ("missing_module", lambda: _missing_module(out)),
            ("no_install", lambda: _no_install(out)),
            ("missing_folder", lambda: _missing_folder(out, folder)),
            ("missing_key", lambda: _missing_key(out)),
            ("many_to_one", lambda: _many_to_one(out, code)),
            ("one_line_python", lambda: _one_line_python(out)),
            ("broken_script", lambda: _broken_script(out, code, folder)),
            ("not_shell", lambda: _not_shell(out)),
            ("content_as_code", lambda: _content_as_code(out, code, making)),
            ("missing_file", lambda: _missing_file(out, folder)))
    elif not out.strip():
        candidates = (("outside", lambda: _outside(code, folder)),)
    else:
        candidates = (("ls_total", lambda: _ls_total(out, code)),
                      ("not_shell", lambda: _not_shell(out)))
    for name, found in candidates:
        if rules is not None and not rules.on(f"hint.{name}"):
            continue
        text = found()
        if text:
            if rules is not None:
                rules.fire(f"hint.{name}", "annotate")
            return text
    return ""


def failure_line(end: RunEnd, folder: Path, code: str = "", making: Sequence[str] = (),
                 rules: Rules | None = None) -> str:
    """A failed run in brief: the last line of its output, and the hint."""
    lines = [line.strip() for line in end.output.splitlines() if line.strip()]
    last = lines[-1][:300] if lines else text("results.failed_brief").format(end.exit_status)
    quiet = None if rules is None else Rules(rules.off, rules.language)  # fires once, below
    return "\n".join(part for part in (last, hint(end, folder, code, making, quiet)) if part)


def _missing_module(output: str) -> str:
    """A missing package is not fixed by `pip install`, which reaches another interpreter
    than the one running the code."""
    missing = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'|"
                        r"ImportError: Missing optional dependency '([\w.]+)'", output)
    if not missing:
        return ""
    return text("hint.missing_module").format(name=missing[1] or missing[2],
                                              packages=python_packages())


def _no_install(output: str) -> str:
    """Nothing can be installed from here: a small model tries `pip install` again and again."""
    if not re.search(r"^ERROR: (No matching distribution found|Could not install)", output,
                     re.MULTILINE):
        return ""
    return text("hint.no_install").format(packages=python_packages())


def _content_as_code(output: str, code: str, making: Sequence[str]) -> str:
    """The text of a file proposed as code (the list for todo.txt as Python, the JSON for
    config.json as JavaScript): it fails to parse, and a small model proposes it again."""
    if not making or "(" in code or "SyntaxError" not in output:
        return ""
    name = making[0]
    writes = (f"require('fs').writeFileSync('{name}', ...)" if re.search(r"^<run \d+>:\d+",
              output, re.MULTILINE) else f"open('{name}', 'w').write(...)")
    return text("hint.content_as_code").format(name=name, writes=writes)


def _not_found(output: str) -> list[Path]:
    """The paths an output says are missing, as Python and bash name them."""
    found = re.findall(r"No such file or directory: '([^'\n]+)'|"
                       r"^[\w.-]+: (?:line \d+: )?([^:'\n]+): No such file or directory|"
                       r"^[\w.-]+: cannot (?:access|stat|open) '([^'\n]+)': No such file|"
                       r"^Error: Cannot find module '((?:/|\.\.?/)[^'\n]+)'",
                       output, re.MULTILINE)
    return [Path(next(part for part in path if part)) for path in found]


def _missing_folder(output: str, where: Path) -> str:
    """Writing into a folder that is not there yet reads as a missing file."""
    named = re.search(r"^OSError: Cannot save file into a non-existent directory: '([^'\n]+)'",
                      output, re.MULTILINE)
    if named:  # pandas names the folder itself
        return _create_first(Path(named[1]))
    for path in _not_found(output):
        if path.is_absolute():
            continue  # made up, as often as not (/path/to/your/files): never a folder to make
        if str(path.parent) not in ("", ".") and not (where / path.parent).exists():
            return _create_first(path.parent)
    return ""


def _create_first(folder: Path) -> str:
    return text("hint.create_first").format(folder=folder)


def _missing_file(output: str, where: Path) -> str:
    """Reading a file that is not there, in a folder that is: small models read the same
    guessed name three times, or read what they were asked to create. An absolute path
    nowhere (a placeholder like /path/to/your/files) is sent back to the working folder."""
    here = where.resolve()
    for path in _not_found(output):
        if path.is_absolute():
            if not path.is_relative_to(here):
                if path.parent.exists():
                    continue
                instead = path.name if (here / path.name).exists() else "."
                return text("hint.nowhere").format(parent=path.parent, instead=instead, path=path,
                                                   held=_listing(here) or NOTHING)
            path = path.relative_to(here)
        folder = here / path.parent
        if not folder.is_dir() or (here / path).exists():
            continue
        held = _listing(folder)
        place = text("hint.working_folder") if str(path.parent) == "." else f"{path.parent}/"
        if any(mark in path.name for mark in "*?["):  # a pattern: nothing to make
            return text("hint.no_match").format(name=path.name, place=place,
                                                held=held or NOTHING)
        if not held:
            return text("hint.empty_folder").format(name=path.name, place=place)
        return text("hint.missing_file").format(name=path.name, place=place, held=held)
    return ""


def _listing(folder: Path) -> str:
    names = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in folder.iterdir())
    return ", ".join(names[:LISTED]) + (", …" if len(names) > LISTED else "")


def _missing_key(output: str) -> str:
    """Small models guess a data file's keys instead of looking at them."""
    key = re.search(r"^KeyError: (.+)$", output, re.MULTILINE)
    if not key:
        return ""
    return text("hint.missing_key").format(key=key[1])


def _many_to_one(output: str, code: str) -> str:
    """`mv *.jpeg *.jpg` moves many files onto one name, which is not how renaming works."""
    if not re.search(r"^(mv|cp): target '[^']*'(: No such file or directory| is not a "
                     r"directory)", output, re.MULTILINE):
        return ""
    globs = re.search(r"\b(mv|cp)\s+(?:-\w+\s+)*\*\.(\w+)\s+\*\.(\w+)", code)
    tool, old, new = globs.groups() if globs else ("mv", "old", "new")
    return text("hint.many_to_one").format(tool=tool, old=old, new=new)


def _one_line_python(output: str) -> str:
    """`python -c "...; def f(): for ..."` cannot work: blocks need lines of their own."""
    if not re.search(r'^\s*File "<string>", line 1\n(.*\n)*?SyntaxError', output, re.MULTILINE):
        return ""
    return text("hint.one_line_python")


def _broken_script(output: str, code: str, where: Path) -> str:
    """A script written by code whose '\\n' inside quotes became a real line break in the
    file: it fails to parse, and the model writes it the same way again and again."""
    if "SyntaxError" not in output:
        return ""
    script = re.search(r"\b(?:node|python3?)\s+([\w./-]+\.(?:js|mjs|cjs|py))\b", code)
    if not script:
        return ""
    try:
        lines = (where / script[1]).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    for number, line in enumerate(lines, 1):
        if line.count("'") % 2 or line.count('"') % 2:
            return text("hint.broken_script").format(number=number, name=script[1])
    return ""


def _not_shell(output: str) -> str:
    """`./sum.js` without a #! line runs as a shell script, which fails on its first
    bracket; os.system() then reports success."""
    script = re.search(r"^\./([\w.-]+\.(?:js|mjs|cjs|py)): \d+: (?:Syntax error|[^:\n]+: not "
                       r"found)", output, re.MULTILINE)
    if not script:
        return ""
    return text("hint.not_shell").format(script=script[1], runner=runner(script[1]))


def _ls_total(output: str, code: str) -> str:
    """`ls -l | sort | head -1` prints ls's "total 16K" line, which a small model reads as
    "no files" or makes a file name up for."""
    if not re.fullmatch(r"\s*total \d+(?:[.,]\d+)?[KMGT]?\s*", output):
        return ""
    listed = re.search(r"\bls\b((?:\s+-\w+)*)((?:\s+[^\s|;&>-][^\s|;&>]*)*)", code)
    where = listed[2].strip() if listed else ""
    return text("hint.ls_total").format(where=where).rstrip()


def _outside(code: str, where: Path) -> str:
    """Code that printed nothing after looking in /lib for the working folder's lib/: the
    user's "under lib/" became an absolute path, and the model reads the silence as an
    answer."""
    for match in ABSOLUTE.finditer(code):
        top = match[1].lstrip("/")
        inside = where / top
        if top and inside.exists() and not str(where).startswith(f"/{top}"):
            relative = top + ("/" if inside.is_dir() else "")
            return text("hint.outside").format(looked=match[0], relative=relative)
    return ""
