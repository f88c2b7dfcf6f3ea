"""A proposal's what-if run, read before anyone is asked to approve it.

Code whose preview failed, where the preview covered all it does, goes back to the model
with what it printed, as a failed run would; so does code that, asked for a change,
changed nothing and printed nothing. A person is asked only about code that did something
in the copy of their files. This is correction from outside the model (an exit status, the
files a run left), the kind that works for small models; a preview that could not cover
the run (the network, the screen, a time limit) proves nothing and is passed over.
"""

from __future__ import annotations

from assistant.checks.record import TurnRecord
from assistant.checks.verdicts import Refuse
from assistant.events import Effect, RunEnd
from assistant.llm.results import describe_run, failure_line
from assistant.texts import text


def judge(effect: Effect, end: RunEnd | None, record: TurnRecord,
          last: bool) -> Refuse | None:
    """The verdict on a proposal whose preview had `effect` and ended with `end`;
    `last`: it is the reply's last call (an earlier one may only set up the next, in
    silence). None when the person should be asked."""
    if end is None or effect.unpreviewable:
        return None
    rules = record.rules
    check = record.answer
    if effect.exit_status not in (0, None) and rules.on("preview.failed"):
        why = failure_line(end)
        return Refuse("preview.failed", text("preview.failed") + "\n" + describe_run(end),
                      f"Tried in a copy of your files: failed ({why}); the model was shown "
                      "why.", why)
    asked = check.asks.changes or check.asks.makes
    if last and asked and effect.exit_status == 0 and not effect.changes_files \
            and not effect.output.strip() and rules.on("preview.unchanged"):
        return Refuse("preview.unchanged", text("preview.unchanged"),
                      "Tried in a copy of your files: changed nothing and printed nothing; "
                      "the model was told.", "")
    return None
