"""`assistant voice`: a push-to-talk conversation in the terminal.

Hold the hotkey (ctrl+alt+space by default), speak, let go: a short sound (the earcon)
says the request was heard, then answers are printed and spoken; a proposal is read out
and approved by saying yes, declined by saying no, and revised by saying anything else.
Ctrl-C ends.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from assistant.choices import HotkeyMode, choices

if TYPE_CHECKING:
    from assistant.config import Settings
    from assistant.servers.started import Servers


def add_voice_options(parser: argparse.ArgumentParser) -> None:
    """The options every spoken front end takes (this command and `assistant daemon`)."""
    parser.add_argument("-m", "--model", help="the LLM, as for `assistant`")
    parser.add_argument("--api-base", help="URL of an OpenAI-compatible or Ollama server")
    parser.add_argument("--hotkey", help="e.g. ctrl+alt+space (default: setting)")
    parser.add_argument("--hotkey-mode", choices=choices(HotkeyMode))
    parser.add_argument("--input-device", help="microphone, by index or name")
    parser.add_argument("--output-device", help="speaker, by index or name")
    parser.add_argument("--tts-engine", help="auto, espeak-ng, pyttsx3 or piper")
    parser.add_argument("--stt-model", help="tiny.en (built in), base (multilingual), a "
                                            "faster-whisper name, a folder")
    parser.add_argument("--stt-language", help="auto, a language code such as fr, or several: "
                                               "en,fr")
    parser.add_argument("--quiet", action="store_true", help="print answers, do not speak them")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant voice", description=__doc__.splitlines()[0])
    add_voice_options(parser)
    args = parser.parse_args(argv)

    from assistant.commands import with_model
    from assistant.config import load_settings

    settings = load_settings({k: v for k, v in vars(args).items() if k != "quiet"})

    def tell(line: str) -> None:
        print(f"assistant: {line}", file=sys.stderr)

    def body(ready: Settings, servers: Servers) -> int:
        if not ready.model:
            tell("no model chosen: pass --model NAME or set model in config.toml")
            return 2
        return converse(ready, quiet=args.quiet, servers=servers)

    return with_model(settings, tell, body)


def converse(settings: Settings, quiet: bool, servers: Servers | None = None) -> int:
    """The push-to-talk loop, once the model is known (at a server of `servers`,
    perhaps)."""
    from assistant.api import Assistant
    from assistant.voice.conversation import VoiceConversation
    from assistant.voice.hotkey import HotkeyError
    from assistant.voice.player import Player
    from assistant.voice.ptt import PushToTalk
    from assistant.voice.recorder import AudioDeviceError, Recorder
    from assistant.voice.speaker import Speaker
    from assistant.voice.stt import Transcriber
    from assistant.voice.tts import TTSError, make_engine

    transcriber = Transcriber.from_settings(settings)
    transcriber.load_in_background()
    try:
        recorder = Recorder(settings.input_device or None)
        speaker = None
        if not quiet:
            speaker = Speaker(make_engine(settings.tts_engine, settings.tts_voice),
                              Player(settings.output_device or None))
    except (AudioDeviceError, TTSError) as exc:
        print(f"assistant: {exc}", file=sys.stderr)
        return 1
    with Assistant(settings=settings, servers=servers) as assistant:
        conversation = VoiceConversation(
            assistant, speaker, speak_mode=settings.speak_proposals,
            voice_approves_high_risk=settings.voice_approves_high_risk)
        ptt = PushToTalk(transcriber, recorder, settings.hotkey, conversation.heard,
                         mode=settings.hotkey_mode, speaker=speaker, earcon=settings.earcon,
                         on_state=lambda state: print(f"[{state}]", file=sys.stderr))
        try:
            ptt.start()
        except HotkeyError as exc:
            print(f"assistant: {exc}", file=sys.stderr)
            return 1
        print(f"Hold {settings.hotkey} and speak; Ctrl-C ends.", file=sys.stderr)
        try:
            conversation.run()
        except KeyboardInterrupt:
            return 0
        finally:
            ptt.stop()
            if speaker is not None:
                speaker.stop()
    return 0
