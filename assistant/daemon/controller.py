"""The daemon's wiring: hotkey, microphone, popup, tray and speech around one conversation.

Threads: Tk (the popup) owns the main thread; turns run one after another on a worker
thread; pynput calls the hotkey handlers on its own thread; the tray has its own. They
meet in the state machine, the job queue and the popup's queue. The hotkey works in
every state: it interrupts speech or thinking and listens, answers a waiting proposal by
voice, and stops a run.

This object is also what the tray menu reads and calls (assistant.ui.tray.TrayActions).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant import warming
from assistant.config import Settings
from assistant.daemon import memory
from assistant.daemon.approvals import Approvals
from assistant.daemon.entry import RequestEntry
from assistant.daemon.fresh import asks_fresh_start, asks_undo, idle_note
from assistant.daemon.menu import TrayMenu
from assistant.daemon.notices import Notifier
from assistant.daemon.parts import (
    PopupLike,
    RecorderLike,
    SpeakerLike,
    TakeLike,
    TranscriberLike,
    TrayLike,
    TurnWatcher,
)
from assistant.daemon.speech import TurnSpeech
from assistant.daemon.state import State, StateMachine
from assistant.events import (
    Approval,
    CodeDraft,
    Error,
    Event,
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
from assistant.voice.brief import brief_error
from assistant.voice.hints import Hints
from assistant.voice.tts import OnDemand, TTSError
from assistant.voice.voices import Voices

if TYPE_CHECKING:
    from assistant.api import Assistant

Job = Callable[[], None]
MakeAssistant = Callable[..., "Assistant"]
RECENT = 8


class Daemon(TrayMenu):
    """Drives one conversation at a time (an Assistant, replaced when the model or the
    conversation changes) by voice, popup and tray; see the module docstring."""

    def __init__(  # noqa: PLR0913 - keyword-only: each part is a seam (daemon/parts.py)
            self, settings: Settings, *, popup: PopupLike, make_assistant: MakeAssistant,
                 transcriber: TranscriberLike | None, recorder: RecorderLike | None,
                 notifier: Notifier, log: Callable[[str], None]) -> None:
        self.settings = settings
        self.popup = popup
        self.transcriber = transcriber
        self.recorder = recorder
        self.speaker: SpeakerLike | None = None  # attached once the voice is loaded
        self.voice: OnDemand | None = None  # its engine, dropped when idle
        self.voices: Voices | None = None  # the speaker's voice for each language
        self.notifier = notifier
        self.log = log
        self.tray: TrayLike | None = None
        self.watchers: list[TurnWatcher] = []  # the web page, with serve = true
        self.hotkey_paused = False
        self.discovered: list[str] = []  # models found at start (Ollama), for the menu
        self.machine = StateMachine(log, [self._state_changed])
        self.approvals = Approvals(popup, self.say, speak_mode=settings.speak_proposals,
                                   voice_approves_high_risk=settings.voice_approves_high_risk,
                                   on_change=self._pending_changed)
        self.speech = TurnSpeech()
        self._make_assistant = make_assistant
        self.assistant = make_assistant(settings=settings, approver=self.approvals)
        self._last_request = time.monotonic()  # a request after a long silence starts afresh
        self._turning = False  # the worker is in a turn (it may go on after a barge-in)
        self.entry = RequestEntry(self.submit)
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._unspoken: list[str] = []  # told before the voice was loaded
        self._take: TakeLike | None = None
        self._take_lock = threading.Lock()
        self._worker = threading.Thread(target=self._work, name="turns", daemon=True)

    # Life.

    def start(self) -> None:
        self._worker.start()

    def close(self) -> None:
        """Stop the worker (interrupting a turn) and the conversation's runtimes."""
        self.assistant.interrupt()
        if self.speaker is not None:
            self.speaker.stop()
        self._jobs.put(None)
        if self._worker.is_alive():
            self._worker.join(10)
        self.assistant.close()

    def attach_speaker(self, speaker: SpeakerLike) -> None:
        """Speak from now on; the LLM's words are then spoken as they stream, so a
        proposal's spoken summary leaves out the plan already heard."""
        self.speaker = self.speech.speaker = speaker
        self.voices = Voices(speaker)
        self.approvals.speak_plan = False
        for text in self._unspoken:
            self.say(text)
        self._unspoken.clear()

    def tell_once(self, key: str, text: str) -> None:
        """Something the user must know about once (a missing part): in the log, and as a
        notification, or else in the popup and said in a short sentence."""
        if self.notifier.once(key, text) is False:
            self.popup.tell(text)
            if self.speaker is not None:
                self.say(brief_error(text))
            else:
                self._unspoken.append(brief_error(text))

    def show(self, title: str, text: str, error: bool = False) -> None:
        """An answer or error the popup is not showing: a notification, or else the popup
        shows it by itself and hides after the usual delay."""
        if not self.notifier.notify(title, text):
            self.popup.tell(text, error)

    # What the tray reads.

    @property
    def state(self) -> State:
        return self.machine.state

    @property
    def detail(self) -> str:
        return self.machine.detail

    @property
    def pending(self) -> str | None:
        return (self.approvals.summary or "the proposal") if self.approvals.pending else None

    @property
    def auto_approval(self) -> bool:
        return self.assistant.policy.mode == "auto"

    @property
    def screen_context(self) -> bool:
        return self.settings.screen_context != "never"

    @property
    def model(self) -> str:
        return self.assistant.settings.model

    def models(self) -> list[str]:
        names = [self.model, self.settings.vision_model, *self.discovered]
        return list(dict.fromkeys(name for name in names if name))

    def recent(self) -> list[tuple[str, str]]:
        journal = self.assistant.journal
        if journal is None:
            return []
        return [(row["id"], row["title"] or f"conversation {row['id'][:8]}")
                for row in journal.conversations(RECENT)]

    # Saying things.

    def say(self, text: str) -> None:
        """Speak a line (and log it: `assistant daemon: say TEXT`)."""
        self.log(f"assistant daemon: say {text}")
        if self.speaker is not None:
            self.speaker.say(text)

    def _state_changed(self, state: State, detail: str) -> None:
        if self.tray is not None:
            try:
                self.tray.update()
            except Exception as exc:  # a broken icon must not stop a turn
                self.tell_once("tray-update", f"the tray icon could not be updated: {exc}")

    def _pending_changed(self, proposal: Proposal | None, summary: str) -> None:
        if proposal is not None:
            self.machine.follow("awaiting_approval", summary)
            return
        if self.speaker is not None:
            self.speaker.stop()  # decided: the rest of the spoken summary is moot
        if self.tray is not None:
            self._state_changed(self.state, self.detail)

    # The hotkey (pynput's thread) and the tray's Listen / Stop.

    def key_down(self) -> None:
        if not self.hotkey_paused:
            self._press()

    def _press(self) -> None:
        """The hotkey's meaning in each state (also the tray's Listen)."""
        state = self.state
        if state == "running":
            self.log("assistant daemon: hotkey: stopping the run")
            self.assistant.interrupt()
            return
        if state in ("transcribing", "listening"):
            return
        if self.recorder is None or self.transcriber is None:
            self.type_request()
            return
        speaking = self.speaker is not None and self.speaker.speaking()
        if not speaking:
            self._hush_earcon()
        self._begin_take()  # listening first, so the turn that ends now cannot say idle
        if speaking or state == "speaking":  # barge-in: the turn goes on, silently
            self.log("assistant daemon: hotkey: stopped speaking")
            self.speech.mute()
        elif state == "thinking":
            self.assistant.interrupt()

    def _hush_earcon(self) -> None:
        """Stop the earcon, if it still plays, before the microphone opens: the press means
        what it means in silence (a sound is not speech, so no barge-in mutes the turn),
        and the take must not record it."""
        if self.speaker is not None and not self.speaker.wait(0):
            self.log("assistant daemon: hotkey: stopped the earcon")
            self.speaker.stop()

    def key_up(self) -> None:
        self._end_take()

    def listen(self) -> None:
        state = self.state
        if state == "listening":
            self._end_take()
        elif state == "speaking":
            self.speech.mute()
        elif state in ("running", "thinking"):
            self.assistant.interrupt()
        else:
            self._press()

    def _begin_take(self) -> None:
        from assistant.voice.recorder import AudioDeviceError

        assert self.transcriber is not None and self.recorder is not None
        with self._take_lock:
            if self._take is not None:
                return
            take = self.transcriber.take(hints=Hints(screen=self.screen_context).text)
            try:
                self.recorder.start(take.feed)
            except AudioDeviceError as exc:
                take.finish()
                self.tell_once("microphone", f"{exc}; use Type a request… in the tray menu")
                return
            self._take = take
        self.popup.wake()  # a proposal may follow soon
        self.warm_up()
        reply = self.approvals.pending is not None
        self.machine.to("listening", "your answer to the proposal" if reply else "")

    def warm_up(self) -> None:
        """Ready the speech model, the voice and the LLM client while the user speaks or
        types: after a long silence they were dropped to free their memory (keep_alive,
        `rest`)."""
        warming.start(self._ready)

    def _ready(self) -> None:
        if self.transcriber is not None:  # beside the rest: the take needs it first
            self.transcriber.load_in_background()
        if self.voice is not None:
            with contextlib.suppress(TTSError):  # said when it fails to speak
                self.voice.load()
        self.assistant.warm_up()

    def rest(self) -> None:
        """Nobody has asked for anything for keep_alive seconds: drop the voice and the
        speech model (warm_up loads them again at the next key press), and give what they
        and the LLM client's last turns freed back to the system."""
        if self.voice is not None:
            self.voice.rest()
        if self.transcriber is not None and self.state == "idle":
            self.transcriber.rest()
        memory.trim()

    def _end_take(self) -> None:
        with self._take_lock:
            take, self._take = self._take, None
            if take is None:
                return
            assert self.recorder is not None
            self.recorder.stop()
        self.popup.wake()  # the panel follows the transcript: the popup polls at full speed
        self.machine.to("transcribing")
        threading.Thread(target=self._transcribed, args=(take,), name="transcript",
                         daemon=True).start()

    def _transcribed(self, take: TakeLike) -> None:
        from assistant.voice.stt import ModelError

        self._heard_you(take)
        try:
            text, language = take.finish(), take.language
        except ModelError as exc:
            self.machine.to("error", str(exc))
            self.popup.tell(str(exc), error=True)
            self.say(brief_error(str(exc)))
            self.machine.to("idle", only_from=("error",))
            return
        self.log(f"assistant daemon: heard {text}")
        if self.approvals.pending is not None:
            self.machine.to("awaiting_approval", self.approvals.summary)
            if text:
                self.approvals.voice_reply(text)
            return
        if not text:  # a barge-in that only silenced a turn: it goes on
            self.machine.to("thinking" if self._turning else "idle", "nothing heard",
                            only_from=("transcribing",))
            return
        if asks_fresh_start(text):
            self.machine.to("idle", "new conversation", only_from=("transcribing",))
            self.new_conversation()
            return
        if asks_undo(text):
            self.machine.to("idle", "undo", only_from=("transcribing",))
            self.undo_last_run()
            return
        self.submit(text, language)

    def _heard_you(self, take: TakeLike) -> None:
        """The earcon, at once, when the take holds speech: the first spoken word is
        seconds away (voice/earcon.py). It is a sound, not words: nothing in the
        transcript or the journal. The microphone is closed while it plays, and a press
        during it stops it before listening (_press), so no take ever records it."""
        from assistant.voice import earcon

        if earcon.acknowledge(take, self.speaker, self.settings.earcon):
            self.log("assistant daemon: earcon")

    # Requests and the turns they start (the worker thread).

    def submit(self, text: str, language: str = "") -> None:
        """A request from any channel (voice, the typed entry, the web page): a turn on the
        worker, its panel on screen at once; after a long silence, in a new conversation.
        `language`: the one it was spoken in (answered in it)."""
        note = idle_note(time.monotonic() - self._last_request,
                         self.settings.conversation_idle_minutes, bool(self.assistant.messages))
        self._last_request = time.monotonic()
        self.machine.to("thinking", text, only_from=("idle", "transcribing", "error",
                                                     "speaking"))
        if note:
            self.log(f"assistant daemon: {note}")
            self._jobs.put(self._fresh)
        self.popup.begin(text, note)
        self._jobs.put(lambda: self._turn(text, language))

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception as exc:  # the daemon outlives any one turn
                self.log(f"assistant daemon: error {type(exc).__name__}: {exc}")
                if self.machine.follow("error", str(exc)):
                    self.popup.tell(f"Something went wrong: {exc}", error=True)
                    self.say(brief_error(str(exc)))
                self.machine.follow("idle")

    def _turn(self, text: str, language: str = "") -> None:
        self.popup.wake()
        self.machine.follow("thinking", text)
        spoken, line = self.voices.begin(language, self.assistant) if self.voices else (True, "")
        self.speech.begin(silent=not spoken)
        if line:
            self.say(line)
        self.approvals.plan = ""
        answer, error = "", ""
        for watcher in self.watchers:
            watcher.begin(text)
        self._turning = True
        try:
            for event in self.assistant.turn(text, language):
                self.popup.show(event)
                for watcher in self.watchers:
                    watcher.show(event)
                self._on_event(event)
                if isinstance(event, Error):
                    error = event.text
                elif isinstance(event, TurnEnd):
                    answer = event.text
        finally:
            self._turning = False
        self._conclude(answer, error)

    def _on_event(self, event: Event) -> None:
        """What one event of the turn means for the state, the speech and the log."""
        match event:
            case TextDelta():
                self.approvals.plan += event.text
                if not self._user_talking():
                    self.speech.feed(event.text)  # shown already: the popup had it first
            case Proposal():
                self.speech.proposal()  # the plan was said; the proposal is read out next
            case Approval():
                self.approvals.plan = ""  # the next proposal's plan is in the words to come
                self.machine.follow("running" if event.approved else "thinking",
                                    event.reason if not event.approved else "")
            case RunEnd():
                self.speech.run_over()
                self.machine.follow("thinking")
            case Tried():  # its plan went with it: the next reply's words are the plan
                self.approvals.plan = ""
                self.log(f"assistant daemon: notice {event.text}")
            case Notice():
                self.log(f"assistant daemon: notice {event.text}")
            case Error() | TurnEnd():
                pass  # the turn's outcome: said and shown once it is over (_conclude)
            case CodeDraft():
                if not self._user_talking():
                    self.speech.code()  # the plan before the code is said now
            case OutputChunk() | Usage() | RuleFired():
                pass  # output is the popup's; usage the journal's
            case _:
                assert_never(event)

    def _conclude(self, answer: str, error: str) -> None:
        """The turn is over: say how it ended, let the speech finish, go idle."""
        if not self._user_talking():
            self.speech.answer_end()
        self._last_request = time.monotonic()
        if answer:
            self.log(f"assistant daemon: answer {answer}")
        if error:
            if self.machine.follow("error", error):
                self.say(brief_error(error))
            if not self._popup_visible():
                self.show("assistant: error", error, error=True)
        elif answer and not self._popup_visible():
            self.show("assistant", answer)
        if self.speaker is not None and not self.speaker.wait(0):
            self.machine.follow("speaking")
            self.speaker.wait()
        self.machine.follow("idle")

    def _user_talking(self) -> bool:
        """The hotkey cut this turn short: its last words must not be spoken over the user."""
        return self.machine.is_in("listening", "transcribing")

    def _popup_visible(self) -> bool:
        try:
            return bool(self.popup.call(lambda window: window.visible()))
        except RuntimeError:
            return False
