"""The daemon's state machine: the turn's path, validated moves, the log line, listeners."""

from __future__ import annotations

import pytest

from assistant.daemon.state import STATES, TRANSITIONS, InvalidTransition, StateMachine, log_line


def machine() -> tuple[StateMachine, list[str], list[tuple[str, str]]]:
    lines: list[str] = []
    seen: list[tuple[str, str]] = []
    states = StateMachine(lines.append, [lambda state, detail: seen.append((state, detail))])
    return states, lines, seen


def test_a_whole_voice_turn_is_a_valid_path_and_each_step_is_logged() -> None:
    states, lines, seen = machine()
    path = ["listening", "transcribing", "thinking", "awaiting_approval", "running",
            "thinking", "speaking", "idle"]
    for state in path:
        assert states.to(state)
    assert [state for state, _ in seen] == path
    assert lines[0] == "assistant daemon: state idle -> listening"
    assert lines[-1] == "assistant daemon: state speaking -> idle"
    assert len(lines) == len(path)


def test_the_detail_is_in_the_line_and_a_new_detail_alone_tells_listeners() -> None:
    states, lines, seen = machine()
    states.to("thinking", "what is on my disk")
    assert lines == ["assistant daemon: state idle -> thinking (what is on my disk)"]
    assert states.to("thinking", "still thinking")
    assert not states.to("thinking", "still thinking")
    assert len(lines) == 1 and seen[-1] == ("thinking", "still thinking")
    assert log_line("a", "b") == "assistant daemon: state a -> b"


def test_moves_the_table_does_not_allow_are_refused() -> None:
    states, lines, _ = machine()
    with pytest.raises(InvalidTransition, match="from idle to running"):
        states.to("running")
    with pytest.raises(InvalidTransition, match="unknown state"):
        states.to("dancing")
    assert states.state == "idle" and not lines


def test_every_state_can_fail_and_every_state_is_reachable() -> None:
    assert set(TRANSITIONS) == set(STATES)
    for state in STATES:
        if state != "error":
            assert "error" in TRANSITIONS[state], state
        assert any(state in targets for targets in TRANSITIONS.values()), state
    assert "idle" in TRANSITIONS["error"]


def test_the_hotkey_interrupts_speaking_thinking_and_approval_to_listen() -> None:
    for state in ("speaking", "thinking", "awaiting_approval", "idle", "error"):
        assert "listening" in TRANSITIONS[state], state


def test_only_from_and_follow_never_overrule_a_user_who_is_talking() -> None:
    states, _, _ = machine()
    assert not states.to("thinking", only_from=("speaking",))
    states.to("listening")
    assert not states.follow("idle")  # a turn winding down while the user speaks
    assert states.state == "listening"
    assert not states.follow("error")
    states, _, _ = machine()
    states.to("thinking")
    assert not states.follow("transcribing")  # not a move from thinking
    assert states.follow("running") and states.state == "running"
