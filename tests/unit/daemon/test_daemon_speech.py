"""What a turn says while the LLM streams: the first sentence at once, a long rest pointed
to, nothing after a barge-in. The speaker here records what it is given (the real one is
exercised by the daemon's integration tests)."""

from assistant.daemon.speech import TurnSpeech
from assistant.voice.brief import ON_SCREEN


class Recorder:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.stopped = 0

    def say(self, text: str) -> None:
        self.said.append(text)

    def feed(self, delta: str) -> None:
        raise AssertionError("TurnSpeech says whole sentences")

    def end_of_text(self) -> None:
        raise AssertionError("TurnSpeech says whole sentences")

    def stop(self) -> None:
        self.stopped += 1

    def wait(self, timeout: float | None = None) -> bool:
        return True


def streamed(speech: TurnSpeech, text: str) -> None:
    for start in range(0, len(text), 4):
        speech.feed(text[start:start + 4])


def spoken_by(speech: TurnSpeech) -> Recorder:
    recorder = Recorder()
    speech.speaker = recorder
    speech.begin()
    return recorder


def test_a_plan_without_a_full_stop_is_said_when_the_code_starts() -> None:
    speech = TurnSpeech()
    recorder = spoken_by(speech)
    streamed(speech, "To check the free space on your disk\n")
    assert recorder.said == []
    speech.code()  # the first draft of the code: the plan is complete
    assert recorder.said == ["To check the free space on your disk"]
    speech.code()
    speech.proposal()
    assert recorder.said == ["To check the free space on your disk"]


def test_only_the_plan_is_said_before_the_code() -> None:
    speech = TurnSpeech()
    recorder = spoken_by(speech)
    streamed(speech, "I'll check the free space. I will use df, which shows every disk, "
                     "and then read its output carefully.\n```shell\ndf -h\n```\n")
    assert recorder.said == ["I'll check the free space."]
    speech.proposal()
    streamed(speech, "You have 41 GB free.")
    speech.answer_end()
    assert recorder.said == ["I'll check the free space.", "You have 41 GB free."]


def test_a_long_answer_points_to_the_screen() -> None:
    speech = TurnSpeech()
    recorder = spoken_by(speech)
    streamed(speech, "There are 40 files. " + "One of them is large and old. " * 8)
    speech.answer_end()
    assert recorder.said == ["There are 40 files.", ON_SCREEN]


def test_a_short_answer_is_said_whole() -> None:
    speech = TurnSpeech()
    recorder = spoken_by(speech)
    streamed(speech, "Done. The folder is there")
    speech.answer_end()
    assert recorder.said == ["Done.", "The folder is there"]


def test_after_a_barge_in_the_turn_says_nothing_more() -> None:
    speech = TurnSpeech()
    recorder = spoken_by(speech)
    streamed(speech, "The answer starts here. ")
    speech.mute()
    streamed(speech, "And goes on. And on.")
    speech.answer_end()
    assert recorder.said == ["The answer starts here."] and recorder.stopped == 1
    speech.run_over()  # what follows a run is spoken again
    streamed(speech, "The run is over. ")
    assert recorder.said[-1] == "The run is over."
    speech.mute()
    speech.begin()  # and the next turn
    streamed(speech, "Hello again. ")
    assert recorder.said[-1] == "Hello again."


def test_a_turn_no_voice_speaks_says_nothing_even_after_a_run() -> None:
    speech = TurnSpeech()
    recorder = spoken_by(speech)
    speech.begin(silent=True)
    streamed(speech, "Voici le plan. ")
    speech.proposal()
    speech.run_over()
    streamed(speech, "C'est fait.")
    speech.answer_end()
    assert recorder.said == []
    speech.begin()
    streamed(speech, "Hello again. ")
    assert recorder.said == ["Hello again."]
