"""Speech out for real: each engine's audio, the null sink's monitor recorded with parec to
hear what was actually played, and the words transcribed back with Whisper."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

import pytest

from assistant.voice.wer import word_error_rate
from tests.support.audio import CHUNK_S, speaker_monitor

SENTENCE = "The backup finished and nothing was deleted."
LONG = ("This is a long answer that keeps going for several seconds, so that there is "
        "plenty of time to interrupt it before it ends on its own.")


@pytest.mark.parametrize("name", ["espeak-ng", "pyttsx3", "piper"])
def test_each_engine_makes_audible_speech(name) -> None:
    import numpy as np

    from assistant.voice.tts import make_engine

    audio, rate = make_engine(name).synthesize(SENTENCE)
    assert 1.0 < len(audio) / rate < 8.0
    assert float(np.sqrt(np.mean(audio ** 2))) > 0.02


def test_say_out_writes_speech_whisper_understands(tmp_path, speech, transcriber) -> None:
    from assistant.voice.wav import read_wav

    out = tmp_path / "said.wav"
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "say", SENTENCE, "--out",
                           str(out), "--engine", "piper"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert word_error_rate(SENTENCE, transcriber.transcribe(read_wav(out))) <= 0.15


def test_unknown_engine_is_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "say", "hi", "--engine", "x"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    # the test environment's example plugin adds its own engine after the built-in ones
    assert done.stderr.strip() == ("assistant: unknown speech engine 'x': choose auto, "
                                   "espeak-ng, pyttsx3, piper, beep")


def test_stop_silences_playback_within_100_ms(pulse) -> None:
    from assistant.voice.player import Player
    from assistant.voice.tts import make_engine

    audio, rate = make_engine("espeak-ng").synthesize(LONG)
    assert len(audio) / rate > 5
    player = Player("pulse")
    played: list[float] = []
    with speaker_monitor(pulse) as monitor:
        thread = threading.Thread(target=lambda: played.append(player.play(audio, rate)))
        thread.start()
        deadline = time.monotonic() + 10
        while len(monitor.loud_times()) < 50 and time.monotonic() < deadline:
            time.sleep(0.01)  # a fresh stream can take a second to be heard
        stop_at = time.monotonic()
        player.stop()
        thread.join(5)
        returned = time.monotonic() - stop_at
    assert returned < 1 and 0 < played[0] < len(audio) / rate - 2, (returned, played)
    loud = monitor.loud_times()
    assert len([t for t in loud if t < stop_at]) >= 50, "under 0.5 s of speech was heard"
    # Arrival times include the monitor's own latency, so this bound is on the safe side.
    assert max(loud) - stop_at <= 0.1, max(loud) - stop_at


def test_streamed_text_is_spoken_from_the_first_sentence(pulse) -> None:
    from assistant.voice.player import Player
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine

    speaker = Speaker(make_engine("espeak-ng"), Player("pulse"))
    with speaker_monitor(pulse) as monitor:
        for piece in ("Here is what", " I found. Your disk"):
            speaker.feed(piece)
        deadline = time.monotonic() + 30
        while speaker.first_audio_at is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert speaker.first_audio_at is not None, "the first sentence was not spoken early"
        rest_fed_at = time.monotonic()
        speaker.feed(" is almost full.")
        speaker.end_of_text()
        assert speaker.wait(30)
    assert speaker.first_audio_at < rest_fed_at
    assert len(monitor.loud_times()) * CHUNK_S > 1.0, "both sentences were not heard"


def test_an_answer_plays_through_one_stream_that_whisper_understands(pulse, transcriber):
    """Sentences streamed in pieces are spoken back to back through a single output
    stream, and what reaches the speaker is the whole answer."""
    from assistant.voice.player import Player
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine

    answer = "Here is what I found. The backup finished. Nothing was deleted."
    player = Player("pulse")
    speaker = Speaker(make_engine("piper"), player)
    with speaker_monitor(pulse) as monitor:
        speaker.speak_stream(answer[i:i + 7] for i in range(0, len(answer), 7))
        assert speaker.wait(30)
    assert player.opened == 1
    heard = transcriber.transcribe(monitor.audio().astype("float32"))
    # Every sentence arrived, in order; the words themselves are Whisper's to get right.
    assert re.search(r"found.*finished.*deleted", heard.lower()), heard
    assert word_error_rate(answer, heard) <= 0.25, heard


def test_speaker_stop_silences_at_once_and_the_next_answer_is_heard(pulse) -> None:
    from assistant.voice.player import Player
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine

    speaker = Speaker(make_engine("espeak-ng"), Player("pulse"))
    with speaker_monitor(pulse) as monitor:
        speaker.say(LONG)
        deadline = time.monotonic() + 10
        while len(monitor.loud_times()) < 50 and time.monotonic() < deadline:
            time.sleep(0.01)
        stop_at = time.monotonic()
        speaker.stop()
        returned = time.monotonic() - stop_at
        assert speaker.wait(0)
        time.sleep(0.5)
        heard_after_stop = [t for t in monitor.loud_times() if t > stop_at + 0.1]
        speaker.say("Listening again.")
        assert speaker.wait(30)
    assert returned < 0.1, returned
    assert heard_after_stop == [], heard_after_stop[:3]
    assert [t for t in monitor.loud_times() if t > stop_at + 0.6], "nothing said after stop"


def test_after_a_stop_a_short_word_is_heard(pulse) -> None:
    """A stop mid-sentence left the played part's length behind: the next piece, a word
    shorter than that, was skipped unheard (or broke the output callback, and the speaker
    never drained)."""
    from assistant.voice.player import Player
    from assistant.voice.tts import make_engine

    engine = make_engine("espeak-ng")
    audio, rate = engine.synthesize(LONG)
    word, _ = engine.synthesize("Yes.")
    player = Player("pulse")
    with speaker_monitor(pulse) as monitor:
        player.open(rate)
        player.write(audio)
        deadline = time.monotonic() + 10
        while len(monitor.loud_times()) < 100 and time.monotonic() < deadline:
            time.sleep(0.01)
        player.stop()
        time.sleep(0.5)
        again = time.monotonic()
        player.open(rate)
        player.write(word)
        assert player.drain(5), "the word after the stop never finished playing"
        time.sleep(0.5)
    player.close()
    assert [t for t in monitor.loud_times() if t > again], "the word after the stop was not heard"


def test_the_earcon_alone_is_a_sound_not_speech_and_words_after_it_are(pulse) -> None:
    """speaking() is what a press of the hotkey reads to tell a barge-in: false while only
    the earcon plays (the speaker is busy, wait(0) is false), true once words are queued
    behind it, and false again when they have been heard."""
    from assistant.voice import earcon
    from assistant.voice.player import Player
    from assistant.voice.speaker import Speaker
    from assistant.voice.tts import make_engine

    speaker = Speaker(make_engine("espeak-ng"), Player("pulse"))
    with speaker_monitor(pulse) as monitor:
        cued = time.monotonic()
        speaker.cue(earcon.heard(), earcon.RATE)
        assert not speaker.wait(0) and not speaker.speaking()
        deadline = cued + 10
        while not [at for at in monitor.loud_times() if at > cued]:
            assert time.monotonic() < deadline, "the earcon was not heard"
            assert not speaker.speaking()
            time.sleep(0.005)
        speaker.say(SENTENCE)
        assert speaker.speaking()
        assert speaker.wait(30)
        assert not speaker.speaking()
    assert [at for at in monitor.loud_times() if at > cued + 0.5], "the words were not heard"


def test_piper_pauses_briefly_between_sentences_and_not_after_a_piece_of_one() -> None:
    """Piper's own silences (about 0.2 s after each sentence) are cut: a proposal of three
    sentences is heard half a second sooner, and the rest of a first piece cut mid-sentence
    follows it at once."""
    import numpy as np

    from assistant.voice.tts import make_engine

    engine = make_engine("piper")

    def silences(text: str) -> tuple[float, float, float]:
        """Seconds of silence before the first sound, after the last, and the longest
        between sounds."""
        audio, rate = engine.synthesize(text)
        sound = np.flatnonzero(np.abs(audio) > 0.001)
        return (sound[0] / rate, (len(audio) - 1 - sound[-1]) / rate,
                float(np.diff(sound).max()) / rate)

    before, after, longest = silences("Changes nothing. Shall I run it?")
    assert before <= 0.03 and after <= 0.11 and longest <= 0.15
    assert silences("I'll check")[1] <= 0.04
