"""`assistant say "text" [--out FILE.wav] [--engine NAME]`: speak, or write speech to a file."""

from __future__ import annotations

import argparse
import sys

from assistant.config import load_settings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant say", description="Speak text aloud.")
    parser.add_argument("text", nargs="+", help="what to say")
    parser.add_argument("--out", metavar="FILE.wav", help="write a WAV file instead of playing")
    parser.add_argument("--engine", help="auto, espeak-ng, pyttsx3 or piper (default: setting)")
    parser.add_argument("--device", help="output device, by index or name (assistant devices)")
    args = parser.parse_args(argv)
    settings = load_settings()
    text = " ".join(args.text)

    from assistant.voice.recorder import AudioDeviceError
    from assistant.voice.tts import TTSError, make_engine

    try:
        engine = make_engine(args.engine or settings.tts_engine, settings.tts_voice)
        if args.out:
            from assistant.voice.wav import write_wav

            audio, rate = engine.synthesize(text)
            write_wav(args.out, audio, rate)
            return 0
        from assistant.voice.player import Player
        from assistant.voice.speaker import Speaker

        errors: list[Exception] = []
        speaker = Speaker(engine, Player(args.device or settings.output_device or None),
                          on_error=errors.append)
        try:
            speaker.speak_stream([text])
            speaker.wait()
        except KeyboardInterrupt:
            speaker.stop()
            return 130
        if errors:
            raise errors[0]
    except (TTSError, AudioDeviceError, OSError) as exc:
        print(f"assistant: {exc}", file=sys.stderr)
        return 1
    return 0
