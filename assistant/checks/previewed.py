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

from assistant.checks.cases import left_out
from assistant.checks.copies import copies
from assistant.checks.missing import noted
from assistant.checks.record import TurnRecord
from assistant.checks.verdicts import Refuse
from assistant.llm import CodeCall
from assistant.messages import describe_run, failure_line
from assistant.runtime.languages import LANGUAGES
from assistant.texts import text
from assistant.whatif.effect import names as listed
from assistant.whatif.preview import Preview


def refusal(seen: Preview, call: CodeCall, folder: str, record: TurnRecord,
            last: bool) -> Refuse | None:
    """The check's Refuse of `call`, whose preview in the working `folder` was `seen`; `last`: it
    is the reply's last call (an earlier one may only set up the next, in silence). None
    when the person should be asked."""
    effect, end, language = seen.effect, seen.end, call.language
    if end is None or effect.unpreviewable:
        return None
    rules = record.rules
    check = record.answer
    if effect.exit_status not in (0, None) and rules.on("preview.failed"):
        why = failure_line(end)
        return Refuse("preview.failed",
                      text("preview.failed") + "\n" + describe_run(end) + noted(end, record),
                      f"Tried in a copy of your files: failed ({why}); the model was shown "
                      "why.", why)
    missed = left_out(call.code, folder, effect) \
        if language in LANGUAGES and rules.on("preview.case") else []
    if missed:
        names = listed(missed)
        ext = os.path.splitext(missed[0])[1].lower()
        examples = {"python": text("preview.case_python"), "shell": text("preview.case_shell"),
                    "javascript": text("preview.case_javascript")}
        example = examples[language].format(ext=ext)
        return Refuse("preview.case",
                      text("preview.case").format(names=names, ext=ext, example=example),
                      f"Tried in a copy of your files: it left out {len(missed)} file(s) "
                      f"whose extension is in capitals ({names}); the model was told.", names)
    asks = check.asks
    if asks.dedupes and effect.exit_status == 0 \
            and effect.changes_files and rules.on("preview.copies"):
        found = copies(folder, asks.folders, effect)
        if found.gone:
            names = listed(found.gone[0])
            return Refuse("preview.copies", text("preview.copies_gone").format(names=names),
                          f"Tried in a copy of your files: it would delete every copy of "
                          f"{names}; the model was told.", names)
        if found.left and last:
            names = listed(found.left)
            told = text("preview.copies_left").format(names=names, how=text("preview.copies_how"))
            return Refuse("preview.copies", told,
                          f"Tried in a copy of your files: {names} would still be copies of "
                          "each other; the model was told.", names)
    asked = asks.changes or asks.makes
    if last and asked and effect.exit_status == 0 and not effect.changes_files \
            and not effect.output.strip() and rules.on("preview.unchanged"):
        return Refuse("preview.unchanged", text("preview.unchanged"),
                      "Tried in a copy of your files: changed nothing and printed nothing; "
                      "the model was told.", "")
    return None
