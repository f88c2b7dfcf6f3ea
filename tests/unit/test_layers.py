"""The package's layers hold: no import runs back up a layer, and no modules import each
other in a circle. Read from the source with `ast`, so it needs nothing installed; imports
under `if TYPE_CHECKING:` count too: they never run, but a module that names another's
type for its checker depends on it as much as one that imports it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "assistant"

FRONT_ENDS = {"ui", "voice", "daemon", "web", "commands", "cli", "api", "__main__"}
CORE = {"events", "config", "choices", "texts", "journal", "safety", "runtime", "llm", "loop",
        "checks", "tools", "plugins", "computer", "warming", "weights", "whatif", "actions"}
# part -> the parts it must never import (beyond the rule that the core knows no front end).
NEVER = {
    "computer": (CORE | FRONT_ENDS) - {"computer"},
    "events": (CORE | FRONT_ENDS) - {"events", "choices"},
    "texts": CORE | FRONT_ENDS,
    "tomlread": CORE | FRONT_ENDS,
    "llm": {"loop", "checks", "tools", "plugins", "safety", "journal"},
    "checks": {"loop", "tools", "plugins", "journal"},
    "runtime": {"llm", "loop", "checks", "tools", "journal"},
    "safety": {"llm", "loop", "checks", "tools", "journal"},
    "journal": {"llm", "loop", "checks", "tools", "runtime"},
    "whatif": {"llm", "loop", "checks", "tools", "journal", "actions"},
    "actions": {"loop", "checks", "llm"},
    "ui": {"daemon", "commands", "cli"},
    "voice": {"daemon", "commands", "cli"},
    "web": {"daemon", "commands", "cli"},
}

Import = tuple[str, str, int]  # (importing module, imported module, line)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path) -> list[Import]:
    """Every import of one of `root`'s modules by another, wherever it is written (a
    function's lazy import, one only the type checker reads)."""
    modules = {module_name(path, root): path for path in root.rglob("*.py")}
    found: list[Import] = []

    def walk(name: str, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            targets: list[str] = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                # `from package import module` names the module, not all of the package
                named = [f"{child.module}.{alias.name}" for alias in child.names]
                targets = [each for each in named if each in modules]
                if len(targets) < len(named):
                    targets.append(child.module)
            found.extend((name, target, child.lineno) for target in targets
                         if target in modules and target != name)
            walk(name, child)

    for name, path in modules.items():
        walk(name, ast.parse(path.read_text(encoding="utf-8")))
    return found


def part(module: str) -> str:
    """The layer a module belongs to: its sub-package, or its own name at the top."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else ""


def upward(found: list[Import]) -> list[str]:
    """The imports that run back up a layer, as 'module:line imports module'."""
    wrong = []
    for source, target, line in found:
        mine, theirs = part(source), part(target)
        banned = NEVER.get(mine, set()) | (FRONT_ENDS if mine in CORE else set())
        if mine != theirs and theirs in banned:
            wrong.append(f"{source}:{line} imports {target} ({mine} is below {theirs})")
    return wrong


def circles(found: list[Import]) -> list[list[str]]:
    """Groups of modules that import each other, directly or around a circle (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for source, target, _ in found:
        graph.setdefault(source, set()).add(target)
        graph.setdefault(target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in list(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_import_runs_back_up_a_layer() -> None:
    assert upward(imports(PACKAGE)) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert circles(imports(PACKAGE)) == []


def test_an_adapter_that_imports_up_for_its_types_or_lazily_and_a_circle_are_all_found(
        tmp_path: Path) -> None:
    root = tmp_path / "assistant"
    (root / "llm").mkdir(parents=True)
    (root / "loop").mkdir()
    (root / "llm" / "client.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import assistant.ui\n"
        "def f():\n    from assistant.loop import session\n")
    (root / "loop" / "session.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import assistant.llm.client\n")
    (root / "ui.py").write_text("")
    found = imports(root)
    assert upward(found) == [
        "assistant.llm.client:3 imports assistant.ui (llm is below ui)",
        "assistant.llm.client:5 imports assistant.loop.session (llm is below loop)"]
    assert circles(found) == [["assistant.llm.client", "assistant.loop.session"]]
