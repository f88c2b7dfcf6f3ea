"""One reply from the model, streamed: its words as they come, the code of a call as it is
written, and the reply whole; a stop or a broken stream ends it in one line."""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from assistant.actions.apply import allows, applies, fired
from assistant.checks.repeats import guessing, looping
from assistant.checks.verdicts import Edit, Warm
from assistant.events import CodeDraft, Error, Event, TextDelta, Usage
from assistant.llm import LLM, LLMError, Reply
from assistant.llm.fenced_stream import FencedStream

if TYPE_CHECKING:
    from assistant.checks.state import TurnState

# The temperature of the reply after the model repeated itself (code that just succeeded,
# or failed again): at the usual low temperature a small model that read nearly the same
# history writes nearly the same reply, and the turn ends in a loop.
UNSTICK_TEMPERATURE = 0.7


class Asking(Protocol):
    """What asking for one reply needs of the conversation (assistant.loop.session)."""

    llm: LLM
    messages: list[dict[str, Any]]
    redact: Callable[[str], str]

    def stopped(self) -> bool: ...
    def halt(self) -> None: ...
    def record(self, item: Event | dict[str, Any]) -> None: ...


def ask(session: Asking, state: TurnState, system: str) -> Generator[Event, None, Reply | None]:
    """Stream one reply from the LLM; None (after an Error) when there is none. When the
    last reply repeated itself or was sent back (the turn is stuck), this one is asked
    warmer (rule repeat.warmer). A fenced reply that starts writing its blocks again ends
    after the first round (rule repeat.in_reply), while it streams; what it writes after
    its last block is not kept in the history (rule history.guess). A fenced reply's runnable
    blocks are shown as drafts, not words (llm/fenced_stream.py), as a tool call's code is.

    A KeyboardInterrupt raised while the LLM is answering (a front end's way to break a
    blocked network read) stops the turn, keeping the words so far."""
    llm = session.llm
    pieces: list[str] = []
    resolve = llm.offer.resolve if llm.offer is not None else None
    cut = None if llm.uses_tools else Cuts(state, resolve)
    start = len(state.shown)
    try:
        reply = yield from streamed(session, state, system, pieces, cut)
    except KeyboardInterrupt:
        session.halt()
        so_far = "".join(pieces)
        return Reply(so_far, [], {"role": "assistant", "content": so_far}, None,
                     llm.settings.model, stopped=True)
    except LLMError as exc:
        yield Error(session.redact(str(exc)))
        return None
    finally:
        state.said = state.shown[start:]
    if reply is None:
        yield Error("The LLM ended its reply without a result: try again.")
        return None
    return kept(session, state, reply, resolve, cut)


def streamed(session: Asking, state: TurnState, system: str, pieces: list[str],
             cut: Cuts | None) -> Generator[Event, None, Reply | None]:
    """The reply as it streams (its words gathered in `pieces`), then whole; warmer when
    the turn is stuck; `cut`: a fenced reply's (None for tool calls)."""
    warmer = state.stuck and applies(state.rules, Warm("repeat.warmer"))
    temperature = max(session.llm.settings.temperature, UNSTICK_TEMPERATURE) if warmer else None
    fenced = None if cut is None else FencedStream(cut.resolve)
    reply: Reply | None = None
    stream = session.llm.stream([{"role": "system", "content": system}, *session.messages],
                                should_stop=session.stopped, temperature=temperature, cut=cut)
    for item in stream:
        if isinstance(item, str):
            pieces.append(item)
            yield from shown(state, fenced, item)
        elif isinstance(item, CodeDraft):
            yield item
        else:
            if fenced is not None:
                yield from words(state, fenced.end(item.stopped))
            reply = item
    return reply


class Cuts:
    """The checks that may end a fenced reply as it streams, each under its rule: one
    that writes its blocks again (repeat.in_reply), one that writes on after its code
    (history.guess); `rule` is the one that ended it."""

    def __init__(self, state: TurnState, resolve: Callable[[str], str | None] | None) -> None:
        self.resolve = resolve  # a tool's name written as a block's tag, to its language
        self.checks = [(rule, functools.partial(check, tools=resolve)) for rule, check in
                       (("repeat.in_reply", looping), ("history.guess", guessing))
                       if allows(state.rules, rule)]
        self.rule = ""

    def __call__(self, text: str) -> str | None:
        for rule, check in self.checks:
            kept = check(text)
            if kept is not None:
                self.rule = rule
                return kept
        return None


WHY_CUT = {"repeat.in_reply": "cut after its first round of blocks",
           "history.guess": "ended after its code, as it streams"}


def kept(session: Asking, state: TurnState, reply: Reply,
         resolve: Callable[[str], str | None] | None, cut: Cuts | None = None) -> Reply:
    """The reply as the history keeps it: cut after its first round of blocks (rule
    repeat.in_reply), without the guess after a fenced reply's code (rule history.guess)."""
    if reply.cut and cut is not None and cut.rule:  # the rule was asked before the stream
        fired(state.rules, Edit(cut.rule, reply.text, WHY_CUT[cut.rule]))
    from assistant.checks.reply import guessed  # the reply checks load once a reply is in

    edit = None if session.llm.uses_tools else guessed(reply, resolve)
    if edit is None or not applies(state.rules, edit):
        return reply
    return replace(reply, message={**reply.message, "content": edit.words})


def shown(state: TurnState, fenced: FencedStream | None, piece: str) -> Iterator[Event]:
    """A piece of the reply as the person sees it: words at once; in a fenced reply, the
    code of a block as a draft, never as words (its proposal, or the one line that says
    its try failed, shows it)."""
    if fenced is None:
        yield from words(state, piece)
        return
    said, draft = fenced.feed(piece)
    yield from words(state, said)
    if draft is not None:
        yield CodeDraft(*draft)


def words(state: TurnState, text: str) -> Iterator[Event]:
    if text:
        state.shown += text
        yield TextDelta(text)


def received(session: Asking, state: TurnState, reply: Reply) -> Iterator[Event]:
    """Journal a reply (and, when its code was not shown as words, what was: `shown`, for
    the web page's history), and say what it cost."""
    shown = {"shown": state.said} if state.said != reply.text else {}
    session.record({"kind": "assistant", "text": reply.text, "model": reply.model, **shown})
    if reply.usage:
        yield Usage(reply.model, reply.usage[0], reply.usage[1])
