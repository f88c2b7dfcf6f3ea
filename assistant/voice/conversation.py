"""A spoken conversation over the Assistant API: transcripts in, events out as speech.

Transcripts arrive on `heard()` from any thread (the push-to-talk loop), with the
language they were heard in: the answer is asked for in it and spoken by its voice
(voice.voices). While a proposal waits, the next transcript is the reply to it: yes, no,
or a new instruction that revises it. High-risk code is never approved by voice alone
unless the setting allows it: the keyboard must confirm.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from assistant.choices import SpeakProposals
from assistant.events import (
    Approval,
    CodeDraft,
    Error,
    Notice,
    OutputChunk,
    Proposal,
    RuleFired,
    RunEnd,
    TextDelta,
    Tried,
    TurnEnd,
    Usage,
    assert_never,
)
from assistant.voice.approval import classify_answer, spoken_approval
from assistant.voice.brief import plan_of
from assistant.voice.speakable import speak_proposal, spoken_code
from assistant.voice.voices import Voices

if TYPE_CHECKING:
    from assistant.api import Assistant
    from assistant.voice.speaker import Speaker

Confirm = Callable[[str], bool]  # asks the keyboard a yes/no question


def keyboard_confirm(question: str) -> bool:
    try:
        return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


class VoiceConversation:
    """Runs turns for transcripts and answers proposals with the next transcript."""

    def __init__(  # noqa: PLR0913 - two parts, then keyword-only options with defaults
            self, assistant: Assistant, speaker: Speaker | None, *,
                 speak_mode: SpeakProposals = "code", voice_approves_high_risk: bool = False,
                 confirm: Confirm = keyboard_confirm,
                 out: TextIO = sys.stdout) -> None:
        self.assistant = assistant
        self.speaker = speaker
        self.speak_mode = speak_mode
        self.voice_approves_high_risk = voice_approves_high_risk
        self.confirm = confirm
        self.out = out
        self.transcripts: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self.voices = Voices(speaker) if speaker is not None else None
        self._words = ""  # the LLM's words so far in this step: the plan of a proposal
        assistant.policy.approver = self.approve

    def heard(self, text: str | None, language: str = "") -> None:
        """A transcript from the push-to-talk loop and its language; None ends the
        conversation."""
        self.transcripts.put(None if text is None else (text, language))

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()
        if self.speaker is not None:
            self.speaker.say(text)

    def run(self) -> None:
        """Take transcripts until None arrives; each one is a turn."""
        while (item := self.transcripts.get()) is not None:
            if item[0].strip():
                self.turn(*item)

    def turn(self, text: str, language: str = "") -> TurnEnd | None:
        self.out.write(f"> {text}\n")
        self._words = ""
        end = None
        spoken, line = self.voices.begin(language, self.assistant) if self.voices else (True, "")
        if line:
            self.say(line)
        answer = self.speaker if spoken else None  # speaks the LLM's words
        for event in self.assistant.turn(text, language):
            match event:
                case TextDelta():
                    self._words += event.text
                    self.out.write(event.text)
                    if answer is not None:
                        answer.feed(event.text)
                case RunEnd():
                    self.out.write(event.output.rstrip() + "\n")
                    self._words = ""
                case Notice() | Tried() | Error():
                    self.say(event.text)
                case TurnEnd():
                    end = event
                case CodeDraft():
                    if answer is not None:
                        answer.end_of_text()  # the words before the code are complete
                case Proposal() | Approval() | OutputChunk() | Usage() | RuleFired():
                    pass  # proposals are spoken by approve(); a run's output by its RunEnd
                case _:
                    assert_never(event)
        self.out.write("\n")
        if self.speaker is not None:
            self.speaker.end_of_text()
        self.out.flush()
        return end

    def approve(self, proposal: Proposal) -> Approval:
        """Speak the proposal, then wait for the spoken reply."""
        if self.speaker is not None:
            self.speaker.end_of_text()
        self.out.write(f"\n--- {proposal.language} ({proposal.risk} risk) ---\n"
                       f"{proposal.code}\n---\n")
        self.say(speak_proposal(proposal.language, proposal.code, plan_of(self._words),
                                self.speak_mode, proposal.effect) + " Shall I run it?")
        self._words = ""
        while True:
            item = self.transcripts.get()
            if item is None:
                self.transcripts.put(None)  # the conversation is ending; let run() see it
                return Approval(proposal.id, False, "user", reason="the conversation ended")
            reply = item[0]
            if reply.strip() and classify_answer(reply) == "read":
                self.say(spoken_code(proposal.language, proposal.code) + ". Shall I run it?")
            elif reply.strip():
                break
        self.out.write(f"> {reply}\n")
        meaning = classify_answer(reply)
        if meaning == "approve" and proposal.risk == "high" and not self.voice_approves_high_risk:
            self.say("This is high risk: confirm on the keyboard.")
            if not self.confirm(f"run this high-risk {proposal.language} code?"):
                return Approval(proposal.id, False, "user", reason="not confirmed")
        return spoken_approval(proposal, reply, meaning)
