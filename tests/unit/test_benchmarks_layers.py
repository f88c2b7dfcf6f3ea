"""The benchmarks package holds together as the assistant's does (test_layers.py reads it
the same way, from the source): no modules import each other in a circle, nothing edits
`sys.path` to find a sibling (here or in scripts/), no import is relative (so the circle
check sees every one), the assistant never imports its benchmarks, and every figure
function is listed in the one registry that decides what the bench measures."""

from __future__ import annotations

import ast
from pathlib import Path

from test_layers import circles, imports

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def python_files(*folders: Path) -> list[Path]:
    return sorted(path for folder in folders for path in folder.rglob("*.py"))


def path_edits(files: list[Path]) -> list[str]:
    """Every use of `sys.path`, as 'file:line': reading it is as much a smell as editing it,
    since code that needs to know where it was imported from is finding a sibling."""
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr == "path"
                    and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                found.append(f"{path.name}:{node.lineno}")
    return found


def relative_imports(files: list[Path]) -> list[str]:
    return [f"{path.name}:{node.lineno}" for path in files
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.level > 0]


def imports_of(files: list[Path], package: str) -> list[str]:
    """Where `files` import `package` or one of its modules, as 'file:line'."""
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == package or name.startswith(package + ".") for name in names):
                found.append(f"{path.name}:{node.lineno}")
    return found


def figure_functions(folder: Path) -> set[str]:
    """The functions shaped as a figure: `name(bench: Bench) -> float`."""
    found = set()
    for path in python_files(folder):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.FunctionDef) and len(node.args.args) == 1
                    and ast.unparse(node.args.args[0].annotation or ast.Name("")) == "Bench"
                    and ast.unparse(node.returns or ast.Name("")) == "float"):
                found.add(node.name)
    return found


def test_no_benchmark_modules_import_each_other_in_a_circle() -> None:
    assert circles(imports(BENCHMARKS)) == []


def test_nothing_in_benchmarks_or_scripts_edits_sys_path() -> None:
    assert path_edits(python_files(BENCHMARKS, ROOT / "scripts")) == []


def test_benchmarks_import_each_other_by_their_full_names() -> None:
    assert relative_imports(python_files(BENCHMARKS)) == []


def test_the_assistant_never_imports_its_benchmarks() -> None:
    assert imports_of(python_files(ROOT / "assistant"), "benchmarks") == []


def test_every_figure_function_is_listed_once_and_quick_names_only_listed_figures() -> None:
    from benchmarks.bench.registry import FIGURE_NAMES, QUICK

    assert len(FIGURE_NAMES) == len(set(FIGURE_NAMES))
    assert figure_functions(BENCHMARKS / "bench") == set(FIGURE_NAMES)
    assert set(FIGURE_NAMES) > QUICK


def test_a_circle_a_path_edit_a_relative_import_and_an_unlisted_figure_are_all_found(
        tmp_path: Path) -> None:
    root = tmp_path / "benchmarks"
    (root / "bench").mkdir(parents=True)
    (root / "bench" / "daemon.py").write_text(
        "def f():\n    from benchmarks.bench import areas\n")
    (root / "bench" / "areas.py").write_text(
        "import sys\nsys.path.insert(0, 'scripts')\nimport benchmarks.bench.daemon\n"
        "from . import daemon\n"
        "def screenshot_ms(bench: Bench) -> float:\n    return 1.0\n")
    files = python_files(root)
    assert circles(imports(root)) == [["benchmarks.bench.areas", "benchmarks.bench.daemon"]]
    assert path_edits(files) == ["areas.py:2"]
    assert relative_imports(files) == ["areas.py:4"]
    assert imports_of(files, "benchmarks") == ["areas.py:3", "daemon.py:2"]
    assert figure_functions(root / "bench") == {"screenshot_ms"}
