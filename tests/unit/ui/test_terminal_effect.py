"""The terminal shows a previewed effect first (its sentence, counts, what was not
covered) and the code one key away; the same lines as every other front end."""

from __future__ import annotations

import io

from rich.console import Console

from assistant.events import Effect, Proposal
from assistant.ui.summary import effect_lines
from assistant.ui.terminal import Terminal

EFFECT = Effect(deleted=("old/", "old/a.log", "old/b.log"), moved=(("x", "y"),),
                summary="Deletes 2 files (old/a.log, old/b.log) and deletes 1 folder (old).",
                unpreviewable=("uses the network, which a preview cuts off",))
P = Proposal("p1", "shell", "rm -r old; mv x y; curl -s example.org", "medium", effect=EFFECT)


def test_effect_lines_are_the_sentence_the_counts_and_what_was_not_covered() -> None:
    assert effect_lines(EFFECT) == [
        EFFECT.summary, "3 deleted · 1 moved",
        "Not covered by the preview: uses the network, which a preview cuts off"]


def test_the_effect_is_shown_first_and_the_code_only_after_the_c_key() -> None:
    out = io.StringIO()
    term = Terminal(Console(file=out, width=120, color_system=None), io.StringIO("c\ny\n"))
    term.show(P)
    shown = out.getvalue()
    assert "shell · risk medium · Deletes 2 files" in shown
    assert "3 deleted · 1 moved" in shown
    assert "rm -r old" not in shown
    decision = term.approve(P)
    after = out.getvalue()[len(shown):]
    assert "[c]ode" in after and "rm -r old; mv x y" in after
    assert decision.approved and decision.code == P.code


def test_without_an_effect_the_code_is_shown_as_before() -> None:
    out = io.StringIO()
    term = Terminal(Console(file=out, width=120, color_system=None), io.StringIO("y\n"))
    term.show(Proposal("p2", "shell", "ls -la"))
    term.approve(Proposal("p2", "shell", "ls -la"))
    assert "ls -la" in out.getvalue() and "[c]ode" not in out.getvalue()


def test_a_desktop_proposal_shows_what_it_will_press_first_not_the_code() -> None:
    """The sentence comes from the screen (assistant/loop/aimed.py); the terminal, the
    popup and the page show it as they show a preview's, and it is never 'harmless'."""
    effect = Effect(summary="Presses Yes in the dialog 'Export'.",
                    desktop=("Presses Yes in the dialog 'Export'",), pressed=(("Yes", "Export"),))
    assert effect_lines(effect) == ["Presses Yes in the dialog 'Export'."]
    assert not effect.harmless  # the code stays one key away, the plan is not read first
    out = io.StringIO()
    term = Terminal(Console(file=out, width=120, color_system=None), io.StringIO("y\n"))
    proposal = Proposal("p3", "python", 'computer.press("Yes")', "medium", effect=effect)
    term.show(proposal)
    shown = out.getvalue()
    assert "python · risk medium · Presses Yes in the dialog 'Export'." in shown
    assert 'computer.press("Yes")' not in shown
