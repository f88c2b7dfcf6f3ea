"""The page shows a desktop proposal's sentence first, the code a click away, also when
the proposal comes back from the journal as JSON."""

from __future__ import annotations

import json

from assistant.events import Effect, Proposal
from assistant.web.render import as_data


def test_a_desktop_effect_survives_json_and_is_shown_first() -> None:
    effect = Effect(summary="Presses Delete in the dialog 'Drafts'.",
                    desktop=("Presses Delete in the dialog 'Drafts'",),
                    pressed=(("Delete", "Drafts"),))
    proposal = Proposal("p1", "python", "computer.press('Delete')", "high", effect=effect)
    for item in (proposal, json.loads(json.dumps(proposal.to_dict()))):
        data = as_data(item)
        assert data["effect_lines"] == ["Presses Delete in the dialog 'Drafts'."]
        assert data["code_hidden"] is True
