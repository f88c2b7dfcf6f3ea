"""Runs as transactions: preview, keep what the run will replace, run for real, compare.

`TransactionalRuntimes` is Runtimes whose every run of code goes this way, so whatever
calls `run` (the loop, the API) gets undo without knowing of it. The real run is then
held to its preview: each path the preview touched must end as previewed, and nothing
else in the working folder may change; a difference is said, to the user in a Notice and
to the model in the run's output. Code whose preview was sealed (read as unable to write,
and run where every mount is read-only) is known to change nothing, so its run is held to
that without listing the folder, which in a large home costs a turn up to 0.2 s. Where
previews cannot work (no user namespaces), or a preview cannot be made, the run goes on
as before, and says that it cannot be undone. A run that reaches a mount its preview
could not cover says that what it did there cannot.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.events import Event, Notice, RunEnd
from assistant.runtime import LANGUAGES, Runtimes, canonical_language
from assistant.runtime.changes import UNWRITTEN, Listing, Listings, list_folder
from assistant.whatif.mounts import inside
from assistant.whatif.probe import problem
from assistant.whatif.uncovered import DISPLAY, shown
from assistant.whatif.undo import Kept, State, UndoError, UndoStore, state_of

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.whatif.preview import Preview

PREVIEW_SECONDS = 10.0
"""The longest a preview before a real run may take; a longer one is cut (and said)."""
SHOWN_DIFFERENCES = 3


class TransactionalRuntimes(Runtimes):
    """Runtimes that preview each run, keep what it replaces in `store`, and compare.

    `hidden` paths (the assistant's own folders) are out of the preview's sight.
    """

    def __init__(self, *args: Any, store: UndoStore, hidden: Sequence[str] = (),
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.store = store
        self.hidden = tuple(hidden)
        self._foreseen: tuple[str, str, Preview] | None = None

    def foresee(self, language: str, code: str) -> Preview | None:
        """A preview of `code` made before a person is asked (None where none can be made);
        the run of exactly this code that follows reuses it instead of making a second."""
        if canonical_language(language) not in LANGUAGES or problem():
            return None
        from assistant.whatif.preview import finished, preview  # with the first proposal

        seen = finished(preview(self, language, code, hidden=self.hidden,
                              timeout=min(PREVIEW_SECONDS, self.timeout)))
        self._foreseen = (language, code, seen)
        return seen

    def run(  # noqa: PLR0913 - as Runtimes.run
        self,
        language: str,
        code: str,
        *,
        proposal_id: str = "",
        timeout: float | None = None,
        max_output: int | None = None,
        whatif: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        """As Runtimes.run; a run of code is previewed first and can be undone after."""
        options: dict[str, Any] = {"proposal_id": proposal_id, "timeout": timeout,
                                   "max_output": max_output}
        if whatif is not None or canonical_language(language) not in LANGUAGES or problem():
            yield from super().run(language, code, whatif=whatif, **options)
            return
        yield from self._transaction(language, code, options)

    def run_listed(self, language: str, code: str, *, proposal_id: str = ""
                   ) -> Generator[Event, None, Listings]:
        """As Runtimes.run_listed, with the listings the run was held to its preview on."""
        if canonical_language(language) not in LANGUAGES or problem():
            return (yield from super().run_listed(language, code, proposal_id=proposal_id))
        options: dict[str, Any] = {"proposal_id": proposal_id, "timeout": None,
                                   "max_output": None}
        return (yield from self._transaction(language, code, options))

    def _transaction(self, language: str, code: str, options: dict[str, Any]
                     ) -> Generator[Event, None, Listings]:
        """Preview (or the preview foreseen), keep, run, compare; the working folder's
        listings before and after the real run ((None, None) when it did not run)."""
        timeout = options["timeout"]
        foreseen, self._foreseen = self._foreseen, None
        if foreseen is not None and foreseen[:2] == (language, code):
            seen = foreseen[2]
        else:
            from assistant.whatif.preview import finished, preview

            limit = min(PREVIEW_SECONDS, self.timeout if timeout is None else timeout)
            seen = finished(preview(self, language, code, hidden=self.hidden, timeout=limit))
        if seen.end is not None and seen.end.interrupted:
            yield seen.end
            return None, None
        kept: Kept | None = None
        if seen.problem:
            yield Notice(f"This run cannot be undone: it could not be previewed "
                         f"({seen.problem}).")
        elif seen.changes:  # a preview that changed nothing leaves nothing to keep
            try:
                kept = self.store.keep(seen.changes)
            except (UndoError, OSError) as error:
                yield Notice(f"This run cannot be undone: {error}.")
        return (yield from self._commit(language, code, options, seen, kept))

    def _commit(self, language: str, code: str, options: dict[str, Any], seen: Preview,
                kept: Kept | None) -> Generator[Event, None, Listings]:
        """The real run, held to the preview `seen`, and recorded for undo in `kept`."""
        folder = os.path.realpath(self.cwd or os.getcwd())
        before = UNWRITTEN if seen.sealed else list_folder(folder)
        end: RunEnd | None = None
        for event in super().run(language, code, **options):
            if isinstance(event, RunEnd):
                end = event
            else:
                yield event
        assert end is not None, "a run always ends with RunEnd"
        listings = (before, UNWRITTEN if seen.sealed else list_folder(folder))
        differences, unseen = _differences(seen, end, set(kept.before) if kept else set(),
                                           folder, listings)
        if differences:
            said = ("The run did not do what its preview showed: " +
                    "; ".join(differences[:SHOWN_DIFFERENCES]) + ".")
            yield Notice(said)
            end = replace(end, output=f"{end.output}\n[{said}]\n".lstrip("\n"))
        if unseen:
            said = (", ".join(unseen[:SHOWN_DIFFERENCES]) + " changed on disk (through the "
                    "display, where a preview cannot follow: an undo cannot take it back).")
            yield Notice(said)
            end = replace(end, output=f"{end.output}\n[{said}]\n".lstrip("\n"))
        if seen.uncovered:
            home = os.path.realpath(Path.home())
            places = ", ".join(shown(path, home) for path in seen.uncovered)
            yield Notice(f"What it did in {places} cannot be undone: the preview could not "
                         "cover it.")
        if kept is not None:
            if kept.before:  # a run that changed no files leaves nothing an undo could do
                run_id = kept.commit(seen.effect.summary, folder, differences)
                yield Notice(f"{seen.effect.summary} To take it back: assistant undo {run_id}")
            else:
                kept.drop()
        yield end
        return listings


def _differences(seen: Preview, end: RunEnd, kept: set[str], folder: str,
                 listings: tuple[Listing | None, Listing | None]
                 ) -> tuple[list[str], list[str]]:
    """How the real run differs from its preview, one short clause each; `kept` paths
    and the working folder's listings before and after it are what it is checked on.
    Second, the files of a run on the display that changed unpreviewed: a program on
    screen (an editor told to save) writes them, which no preview can show, so they are
    no difference."""
    before, after = listings
    found: list[str] = []
    unseen: list[str] = []
    on_display = DISPLAY in seen.effect.unpreviewable
    # Code the preview could not cover (the display, the network) may well fail there and
    # succeed for real: its exit status says nothing then, only its files do.
    if end.exit_status != seen.effect.exit_status and seen.effect.exit_status is not None \
            and not seen.effect.unpreviewable:
        found.append(f"it ended with exit status {end.exit_status}, the preview with "
                     f"{seen.effect.exit_status}")
    expected = {c["path"]: _expected(c) for c in seen.changes}
    for path, state in expected.items():
        if not _matches(state_of(path), state):
            found.append(f"{_shown(path, folder)} is not as previewed")
    if before is not None and after is not None:
        old, new = before.entries, after.entries
        for relative in sorted(set(old) | set(new)):
            path = os.path.join(folder, relative)
            if path in expected or path in kept or any(
                    inside(path, mount) for mount in seen.uncovered):  # said apart
                continue
            was, now = old.get(relative), new.get(relative)
            if (was is None or now is None or was[:2] != now[:2]) and on_display:
                unseen.append(relative)
            elif was is None or now is None or was[:2] != now[:2]:
                found.append(f"{relative} changed, which the preview did not show")
    return found, unseen


def _expected(change: dict[str, Any]) -> State:
    if change["change"] == "deleted":
        return {}
    return {"kind": change["kind"], "sha": change.get("sha")}


def _matches(now: State, expected: State) -> bool:
    if not expected:
        return not now
    if now.get("kind") != expected["kind"]:
        return False
    return expected["kind"] == "dir" or not expected.get("sha") or \
        now.get("sha") == expected["sha"]


def _shown(path: str, folder: str) -> str:
    return os.path.relpath(path, folder) if path.startswith(folder + "/") else path


def runtimes_for(settings: Settings, tell: Callable[[str], None], **options: Any) -> Runtimes:
    """The runtimes a conversation with `settings` uses: transactional with `undo` on.
    Where previews cannot work now, `tell` hears why, once, and runs go on as before
    until they can (each run asks again: a long-lived conversation is not left
    without them for its life)."""
    if not settings.undo:
        return Runtimes(**options)
    if problem():
        tell(f"runs are not previewed and cannot be undone: {problem()}")
    return TransactionalRuntimes(store=UndoStore(settings.data_path / "undo"),
                                 hidden=settings.own_paths, **options)
