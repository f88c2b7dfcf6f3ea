"""Fitting the history into the model's context window before it is sent.

Pure: the token counter is passed in, so the rules can be tested without a tokenizer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from assistant.messages import KIND, is_results_message
from assistant.texts import text

Message = dict[str, Any]
Counter = Callable[[Message], int]

MIN_KEEP = 400
CUT = text("results.cut")  # stands for the middle of an output cut to fit
MESSAGE_OVERHEAD = 8  # tokens a chat template adds around one message, at most


def has_image(message: Message) -> bool:
    """Whether the message carries an image part (a screenshot)."""
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(part, dict) and part.get("type") == "image_url" for part in content
    )


def surely_fits(messages: list[Message], budget: int) -> bool:
    """Whether `messages` fit in `budget` tokens by a bound that needs no tokenizer.

    A token of any BPE or SentencePiece vocabulary covers at least one byte, so a
    message costs at most the bytes of its JSON form plus the template's few tokens.
    Most histories are far below the window: they are sent without being tokenized, and
    the tokenizer (tens of megabytes, and time on every request) is loaded only for a
    history that comes near the limit, or carries images.
    """
    size = sum(len(json.dumps(m, ensure_ascii=False, default=str).encode()) for m in messages)
    return size + MESSAGE_OVERHEAD * len(messages) <= budget


def reply_tokens(max_tokens: int, context_window: int) -> int:
    """Room kept for the answer: the setting, or a quarter of the window up to 4096."""
    return max_tokens if max_tokens > 0 else max(1, min(4096, context_window // 4))


def fit(messages: list[Message], budget: int, count: Counter) -> list[Message]:
    """A copy of `messages` that fits in `budget` tokens, as far as the rules allow.

    The system message and the last turn always stay. Oldest whole turns go first,
    so a tool call never loses its result; if the last turn alone is too big, its
    longest run outputs are cut in the middle. The caller's list is not changed.
    """
    messages = [dict(m) for m in messages]
    head = messages[:1] if messages and messages[0].get("role") == "system" else []
    turns = split_turns(messages[len(head) :])
    sizes = [sum(count(m) for m in turn) for turn in turns]
    total = sum(count(m) for m in head) + sum(sizes)
    while total > budget and len(turns) > 1:
        total -= sizes.pop(0)
        turns.pop(0)
    if total > budget and turns:
        _shorten_outputs(turns[-1], total - budget, count)
    return head + [m for turn in turns for m in turn]


def split_turns(messages: list[Message]) -> list[list[Message]]:
    """Group messages into turns: each starts at a message the user wrote.

    Run results sent back as user messages (fenced mode) belong to the turn they answer;
    the screen a turn starts with comes just before its request, and belongs to it.
    """
    turns: list[list[Message]] = []
    waiting: list[Message] = []  # screens, until the message after them says whose
    for message in messages:
        starts = message.get("role") == "user" and not is_results_message(message)
        if not starts and message.get("role") == "user" and message.get(KIND) == "screen":
            waiting.append(message)
            continue
        if starts or not turns:
            turns.append([])
        turns[-1] += [*waiting, message]
        waiting = []
    if waiting and turns:
        turns[-1] += waiting
    elif waiting:
        turns.append(waiting)
    return turns


def cut_middle(text: str, keep: int) -> str:
    """Keep the start and (more of) the end of `text`, where errors and results usually are."""
    if len(text) <= keep:
        return text
    head = keep // 3
    tail = keep - head
    return f"{text[:head]}\n{CUT.format(len(text) - keep)}\n{text[-tail:]}"


def _shorten_outputs(turn: list[Message], excess: int, count: Counter) -> None:
    """Cut the longest outputs in `turn`, in place, until `excess` tokens are gone or none can.

    Each cut is taken from the original text, so the marker counts what is really missing.
    """
    originals = {
        i: m["content"]
        for i, m in enumerate(turn)
        if isinstance(m.get("content"), str) and (m.get("role") == "tool" or is_results_message(m))
    }
    kept = {i: len(text) for i, text in originals.items()}
    while excess > 0 and kept:
        i = max(kept, key=kept.__getitem__)
        if kept[i] <= MIN_KEEP:
            break
        before = count(turn[i])
        chars_per_token = len(turn[i]["content"]) / max(1, before)
        kept[i] = max(MIN_KEEP, kept[i] - int(excess * chars_per_token * 1.1) - 64)
        turn[i] = {**turn[i], "content": cut_middle(originals[i], kept[i])}
        excess -= before - count(turn[i])
