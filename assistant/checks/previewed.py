"""A proposal's what-if run, read before anyone is asked to approve it.

Code whose preview failed, where the preview covered all it does, goes back to the model
with what it printed, as a failed run would; so does code that, asked for a change,
changed nothing and printed nothing, and code whose filter left out files of the type it
names because their extension is in capitals (`Scan.PDF` for '.pdf'), and code asked to
remove duplicate files that would delete every copy of one, or leave two. A person is asked
only about code that did something in the copy of their files. This is correction from
outside the model (an exit status, the files a run left), the kind that works for small
models; a preview that could not cover the run (the network, the screen, a time limit)
proves nothing and is passed over.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from assistant.checks.cases import left_out
from assistant.checks.copies import copies
from assistant.checks.state import TurnState
from assistant.checks.verdicts import Refuse
from assistant.events import Effect
from assistant.llm import CodeCall
from assistant.messages import describe_run, failure_line
from assistant.runtime.languages import LANGUAGES
from assistant.texts import text
from assistant.whatif.effect import names as listed
from assistant.whatif.preview import Preview


def refusals(seen: Preview, call: CodeCall, folder: str, state: TurnState,
             last: bool) -> Iterator[Refuse]:
    """The checks' Refuses of `call`, whose preview in the working `folder` was `seen`, one
    per rule in order (the first whose rule may act sends it back); `last`: it is the
    reply's last call (an earlier one may only set up the next, in silence). None: the
    person should be asked."""
    effect, end, language = seen.effect, seen.end, call.language
    if end is None or effect.unpreviewable:
        return
    if effect.exit_status not in (0, None):
        why = failure_line(end)
        yield Refuse("preview.failed", text("preview.failed") + "\n" + describe_run(end),
                     f"Tried in a copy of your files: failed ({why}); the model was shown "
                     "why.", why)
    missed = left_out(call.code, folder, effect) if language in LANGUAGES else []
    if missed:
        names = listed(missed)
        ext = os.path.splitext(missed[0])[1].lower()
        examples = {"python": text("preview.case_python"), "shell": text("preview.case_shell"),
                    "javascript": text("preview.case_javascript")}
        example = examples[language].format(ext=ext)
        yield Refuse("preview.case",
                     text("preview.case").format(names=names, ext=ext, example=example),
                     f"Tried in a copy of your files: it left out {len(missed)} file(s) "
                     f"whose extension is in capitals ({names}); the model was told.", names)
    asks = state.request
    if asks.dedupes and effect.exit_status == 0 and effect.changes_files:
        yield from _copies(folder, asks.folders, effect, last)
    asked = asks.changes or asks.makes
    if last and asked and effect.exit_status == 0 and not effect.changes_files \
            and not effect.output.strip():
        yield Refuse("preview.unchanged", text("preview.unchanged"),
                     "Tried in a copy of your files: changed nothing and printed nothing; "
                     "the model was told.", "")


def _copies(folder: str, asked: tuple[str, ...], effect: Effect, last: bool
            ) -> Iterator[Refuse]:
    """Copies of a file all deleted, or (by the reply's last call) two left."""
    found = copies(folder, asked, effect)
    if found.gone:
        names = listed(found.gone[0])
        yield Refuse("preview.copies", text("preview.copies_gone").format(names=names),
                     f"Tried in a copy of your files: it would delete every copy of "
                     f"{names}; the model was told.", names)
    elif found.left and last:
        names = listed(found.left)
        told = text("preview.copies_left").format(names=names, how=text("preview.copies_how"))
        yield Refuse("preview.copies", told,
                     f"Tried in a copy of your files: {names} would still be copies of "
                     "each other; the model was told.", names)
