"""The package's layers hold: no import runs back up a layer, and no modules import each
other in a circle. Read from the source with `ast`, so it needs nothing installed; imports
under `if TYPE_CHECKING:` count too: they never run, but a module that names another's
type for its checker depends on it as much as one that imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "assistant"

# The layers, lowest first: a module may import its own layer's and those below, never
# one above. A layer names parts (a sub-package, or a module at the top) or single
# modules, which sit where they are named, apart from the rest of their package (the
# longest name wins): the types a plugin registers (runtime.spec, tools.tool,
# safety.findings) are below the runtime that reads them and the plugins that carry them,
# which sit above the runtime (the parts hand it the plugins' languages);
# `assistant mcp` (tools.gate, tools.mcp_server) is a way in to the action pipeline, like
# the loop. Parts of one layer may import each other; their modules never in a circle.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("tomlread", "choices", "computer"),
    ("texts", "events", "messages"),  # messages: the loop's history vocabulary
    ("deny", "tool_settings", "rulebook"),  # what Settings checks on entry
    ("config",),
    ("journal",),
    ("servers",),  # the local model servers' lifecycle: Settings in, addresses out
    ("safety.findings", "safety.redact", "safety.paths", "safety.runs_later",
     "runtime.spec", "tools.tool"),  # runs_later: the effect's sentence names them
    ("runtime",),
    ("whatif",),
    ("safety",),
    ("plugins",),  # given to the runtimes by the parts that build them, never looked up
    ("llm",),
    ("tools",),
    ("checks",),
    ("actions",),
    ("tools.gate", "tools.mcp_server"),
    ("loop",),
    ("warming", "weights"),
    ("api",),
    ("ui", "voice", "web"),
    ("daemon",),
    ("cli", "commands"),
    ("__main__", ""),
)
# Parts that import nothing else of the package: `computer` is what generated code runs.
ALONE = {"computer", "tomlread"}

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


def layer(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> tuple[int, str]:
    """The layer a module belongs to, by the longest of its names the layers declare (its
    own, its sub-package's, or "" for the package itself), and that name; KeyError for a
    module in no layer, so a new part must be placed."""
    rank = {name: number for number, names in enumerate(layers) for name in names}
    pieces = module.split(".")[1:]
    for name in [".".join(pieces[:length]) for length in range(len(pieces), 0, -1)] or [""]:
        if name in rank:
            return rank[name], name
    raise KeyError(f"{module} is in no layer: add its part to LAYERS in {__file__}")


def upward(found: list[Import], layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """The imports that run back up a layer, as 'module:line imports module'."""
    wrong = []
    for source, target, line in found:
        (mine, me), (theirs, them) = layer(source, layers), layer(target, layers)
        if theirs > mine or (me in ALONE and me != them):
            wrong.append(f"{source}:{line} imports {target} ({me} is below {them})")
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


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_settings_reaching_into_the_parts_that_read_them_and_a_runtime_into_those_above_are_found(
        tmp_path: Path) -> None:
    root = tmp_path / "assistant"
    write(root, {
        "config.py": "import assistant.safety.rating\nimport assistant.tools.servers\n"
                     "def f():\n    from assistant.checks import rules\n",
        "safety/rating.py": "", "tools/servers.py": "", "checks/rules.py": "",
        "runtime/drivers/python_driver.py": "def f():\n    from assistant.whatif import world\n",
        "whatif/world.py": "",
        "tools/gate.py": "from assistant.loop.screen import ScreenFeed\n",
        "loop/screen.py": "",
        "runtime/languages.py": "def f():\n    from assistant.plugins.registry import installed\n",
        "plugins/registry.py": "",
        "computer/verbs.py": "from assistant.choices import Level\n", "choices.py": "",
    })
    assert sorted(upward(imports(root))) == [
        "assistant.computer.verbs:1 imports assistant.choices (computer is below choices)",
        "assistant.config:1 imports assistant.safety.rating (config is below safety)",
        "assistant.config:2 imports assistant.tools.servers (config is below tools)",
        "assistant.config:4 imports assistant.checks.rules (config is below checks)",
        "assistant.runtime.drivers.python_driver:2 imports assistant.whatif.world "
        "(runtime is below whatif)",
        "assistant.runtime.languages:2 imports assistant.plugins.registry "
        "(runtime is below plugins)",
        "assistant.tools.gate:1 imports assistant.loop.screen (tools.gate is below loop)"]


def test_a_module_placed_below_its_package_may_not_import_the_rest_of_it(
        tmp_path: Path) -> None:
    root = tmp_path / "assistant"
    write(root, {"runtime/spec.py": "import assistant.runtime.process\n",
                 "runtime/process.py": "import assistant.runtime.spec\n",
                 "plugins/registry.py": "import assistant.runtime.spec\n"})
    assert upward(imports(root)) == [
        "assistant.runtime.spec:1 imports assistant.runtime.process (runtime.spec is below "
        "runtime)"]


def test_a_part_in_no_layer_is_named_so_it_gets_placed() -> None:
    with pytest.raises(KeyError, match=r"assistant\.newpart\.thing is in no layer"):
        layer("assistant.newpart.thing")
