"""Checks are inspectors: they return verdicts, and only the pipeline's one place
(assistant/actions/apply.py, with the rest of assistant/actions) asks whether a rule may
act and records its firing. Read from the source with `ast`, like test_layers: a call of
`rules.on(`, `rules.fire(` or the budget's `send_back(`/`affordable(` anywhere else in the
package fails here."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "assistant"
# Where a rule may be asked or fired: the pipeline, and the Rules class itself.
ALLOWED = ("actions/", "checks/rules.py")
# Methods only Rules has: any call of them is one.
FIRING = {"fire", "send_back", "affordable"}


def receiver_is_rules(node: ast.expr) -> bool:
    """`rules`, or anything ending in `.rules` (state.rules, self.session.rules)."""
    return (isinstance(node, ast.Name) and node.id == "rules") or (
        isinstance(node, ast.Attribute) and node.attr == "rules")


def rule_calls(root: Path) -> list[str]:
    """Each call that asks or fires a rule outside the allowed places, as 'path:line'."""
    found: list[tuple[str, int]] = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where.startswith(ALLOWED):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            method = node.func.attr
            if method in FIRING or (method == "on" and receiver_is_rules(node.func.value)):
                found.append((where, node.lineno))
    return [f"{where}:{line}" for where, line in sorted(found)]


def test_no_rule_is_asked_or_fired_outside_the_pipeline() -> None:
    assert rule_calls(PACKAGE) == []


def test_a_rule_asked_or_fired_anywhere_else_is_found(tmp_path: Path) -> None:
    (tmp_path / "loop").mkdir()
    (tmp_path / "actions").mkdir()
    (tmp_path / "loop" / "ask.py").write_text(
        "if state.rules.on('repeat.warmer'):\n"
        "    state.rules.fire('repeat.warmer', 'warm')\n"
        "rules.on('screen.attach')\n"
        "budget.send_back('answer.no_run')\n"
        "cover.on(path)\n")  # another `on`: not a rule's
    (tmp_path / "actions" / "apply.py").write_text("rules.on('x')\nrules.fire('x', 'refuse')\n")
    assert rule_calls(tmp_path) == ["loop/ask.py:1", "loop/ask.py:2", "loop/ask.py:3",
                                    "loop/ask.py:4"]
