"""`assistant transcribe FILE.wav [--json]`: speech to text with the local Whisper model."""

from __future__ import annotations

import argparse
import json
import sys

from assistant.config import load_settings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant transcribe",
                                     description="Transcribe a WAV file on this machine.")
    parser.add_argument("file", help="a 16-bit PCM WAV file (any rate, mono or stereo)")
    parser.add_argument("--json", action="store_true",
                        help="print {text, language, audio_seconds, seconds, model}")
    parser.add_argument("--model", help="tiny.en (built in), base (multilingual), a "
                                        "faster-whisper name, or a folder")
    parser.add_argument("--language", help="auto (found by the multilingual base unless "
                                           "--model says otherwise), a code such as en, fr, "
                                           "de, or several: en,fr (default: stt_language)")
    args = parser.parse_args(argv)

    from assistant.voice.stt import MULTILINGUAL, ModelError, Transcriber, transcribe_file

    settings = load_settings()
    # Asking for a language other than English, or for auto, asks for a model that has it.
    wants_languages = args.language not in (None, "en") and not settings.stt_model
    model = args.model or (MULTILINGUAL if wants_languages else "")
    transcriber = Transcriber.from_settings(settings, model, args.language or "")
    try:
        result = transcribe_file(transcriber, args.file)
    except (ModelError, ValueError) as exc:
        print(f"assistant: {exc}", file=sys.stderr)
        return 1
    except FileNotFoundError:
        print(f"assistant: {args.file}: no such file", file=sys.stderr)
        return 1
    print(json.dumps(result) if args.json else result["text"])
    return 0
