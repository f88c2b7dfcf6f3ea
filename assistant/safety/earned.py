"""Whether a run has earned going without asking: `low` under approval = "auto" means it
was shown to be harmless, not that nothing bad was found in it.

A list of what is dangerous is never complete (every new program, flag or indirection is
a hole), so the rule is the other way round: every program the run starts is on a list of
known programs used in known ways (known_programs.toml), and its preview covered the whole
run: nothing it could not see (network, display, a write outside home, work left running
or left to run later), no program or module missing here, and no change outside the
working folder and the places the person allowed (`auto_places`). Anything else asks, and
says why in one line. A preview that failed, or whose commands met a missing file, proves
nothing either: it shows what the code does when it fails, not what it does where it
works (a file there by the time it runs, a folder the preview's world lacks), and the
real run might not meet that failure. It asks too.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from assistant.events import Effect
from assistant.runtime.languages import canonical_language
from assistant.safety import paths
from assistant.safety.findings import Scope
from assistant.tomlread import tomllib
from assistant.whatif import uncovered
from assistant.whatif.effect import names

KNOWN = Path(__file__).with_name("known_programs.toml")
PRELUDE = ("os", "sys", "re", "json", "csv", "glob", "shutil", "subprocess", "math", "time")
"""The modules the Python runtime has imported for every run (runtime/drivers)."""
MISSING = re.compile(r"command not found|: not found\b|ModuleNotFoundError|No module named"
                     r"|Cannot find module|spawn\S* ENOENT|in _execute_child")
"""A program or module the run needs that is not installed here."""
NO_FILE = re.compile(r"No such file or directory|ENOENT|FileNotFoundError", re.IGNORECASE)
"""A file or folder the run's commands looked for and did not find."""


@dataclass(frozen=True)
class Known:
    """The known programs and modules, read once from known_programs.toml."""

    programs: frozenset[str]
    refused: dict[str, re.Pattern[str]]
    modules: frozenset[str]
    python_refused: tuple[str, ...]
    js_modules: frozenset[str]
    js_refused: tuple[re.Pattern[str], ...]


@functools.cache
def known() -> Known:
    data = tomllib.loads(KNOWN.read_text(encoding="utf-8"))
    shell, python, js = data["shell"], data["python"], data["javascript"]
    return Known(
        frozenset(shell["keywords"] + shell["readers"] + shell["files"]),
        {name: re.compile(p) for name, p in shell.get("refused", {}).items()},
        frozenset(python["modules"]), tuple(python["refused"]),
        frozenset(js["modules"]), tuple(re.compile(p) for p in js["refused"]))


def unearned(language: str, code: str, effect: Effect | None,
             places: tuple[str, ...] = ()) -> str:
    """Why a run rated low may not go without asking, as the end of "It asks: ..."; ""
    when it has earned it. `effect` is what its preview showed (None: no preview)."""
    name = canonical_language(language) or language
    why = _starts(name, code) or _language(name, code)
    if why:
        return why
    if effect is None:
        cannot = uncovered.reasons(code, "")
        return (f"its preview could not cover it: it {cannot[0]}" if cannot else
                "it was not previewed, so nothing shows what it does")
    return _covered(effect, places)


def _starts(language: str, code: str) -> str:
    """The first program the code starts that is not known, or known but used otherwise."""
    if language not in ("shell", "python", "javascript"):
        return f"it is {language}, which no list of known programs covers"
    from assistant.safety.risk import findings_for  # the checkers, loaded with a proposal

    started: list[tuple[str, tuple[str, ...]]] = []
    findings_for(code, language, Scope(started=started, nested=findings_for))
    table = known()
    for program, args in started:
        if paths.UNKNOWN in program:
            return "it starts a program whose name is known only at run time"
        if program not in table.programs:
            return f"it starts {program}, which is not on the list of known programs"
        pattern = table.refused.get(program)
        hit = pattern.search(" ".join(args)) if pattern else None
        if hit:
            return (f"it runs {program} with `{hit.group(0).strip()}`, which can start other "
                    "programs or reach beyond files")
    return ""


def _language(language: str, code: str) -> str:
    if language == "python":
        return _python(code)
    if language == "javascript":
        return _javascript(code)
    return ""


def _python(code: str) -> str:
    """A Python run is known when every module it uses is known and it calls nothing that
    runs code given as text, starts processes the risk check cannot read, or leaves code
    to run later (a thread, a timer, an exit hook: their modules are not on the list)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return "it is not valid Python"
    table = known()
    bound: dict[str, str] = {name: name for name in PRELUDE}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0])
                if not _known_module(alias.name, table):
                    return f"it uses {alias.name}, which is not on the list of known modules"
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or not _known_module(module, table):
                return f"it uses {module or 'a module of its own'}, which is not on the " \
                       "list of known modules"
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{module}.{alias.name}"
    for node in ast.walk(tree):
        dotted = _dotted(node, bound)
        if dotted and any(fnmatch.fnmatchcase(dotted, p) or dotted.startswith(p + ".")
                          for p in table.python_refused):
            return f"it uses {dotted}, which runs code or processes a preview cannot hold"
        if isinstance(node, ast.Call) and _dotted(node.func, bound) == "getattr" and \
                len(node.args) > 1 and not isinstance(node.args[1], ast.Constant):
            return "it calls a function whose name is known only at run time"
    return ""


def _known_module(module: str, table: Known) -> bool:
    parts = module.split(".")
    return any(".".join(parts[:n]) in table.modules for n in range(len(parts), 0, -1)) and \
        module.split(".")[0] in table.modules


def _dotted(node: ast.AST, bound: dict[str, str]) -> str:
    """`shutil.rmtree` for `import shutil as s; s.rmtree`; a builtin's bare name."""
    if isinstance(node, ast.Name):
        return bound.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value, bound)
        return f"{head}.{node.attr}" if head else ""
    return ""


REQUIRED = re.compile(r"""\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)|\bfrom\s+['"]([^'"]+)['"]"""
                      r"""|\bimport\s+['"]([^'"]+)['"]""")


def _javascript(code: str) -> str:
    """A JavaScript run is known when it requires only known modules, by their own names,
    and does nothing that runs text as code or leaves work behind in the live runtime."""
    table = known()
    for match in REQUIRED.finditer(code):
        module = next(g for g in match.groups() if g).removeprefix("node:")
        if module not in table.js_modules:
            return f"it uses {module}, which is not on the list of known modules"
    for pattern in table.js_refused:
        hit = pattern.search(code)
        if hit:
            return (f"it uses `{hit.group(0).strip()}`, which runs code a preview cannot hold "
                    "or reaches a function by a name built at run time")
    return ""


def _covered(effect: Effect, places: tuple[str, ...]) -> str:
    """Why the preview does not show the whole run ("" when it does)."""
    if effect.unpreviewable:
        return f"its preview could not cover all of it: it {effect.unpreviewable[0]}"
    if effect.desktop:  # found on the screen now, but what it sets off there is not shown
        return (f"it acts on the screen ({effect.desktop[0]}), and what that does there no "
                "preview shows")
    if effect.exit_status == 127 or MISSING.search(effect.output):
        return ("a program or module it needs is not installed here, so its preview shows "
                "nothing of what it does where it is")
    if effect.exit_status not in (0, None):
        return (f"its preview failed (exit status {effect.exit_status}), so it shows nothing "
                "of what the run does where it works")
    if NO_FILE.search(effect.output):
        return ("its preview met a missing file or folder, so it shows nothing of what the "
                "run does where that is there")
    allowed = tuple(paths.normalise(p) for p in places)
    changed = [*effect.created, *effect.modified, *effect.deleted,
               *(p for pair in effect.moved for p in pair)]
    outside = sorted({p for p in changed if p.startswith("/") and not any(
        paths.normalise(p) == a or paths.normalise(p).startswith(a.rstrip("/") + "/")
        for a in allowed)})
    if outside:
        return f"it changes {names(outside)}, outside the working folder"
    return ""
