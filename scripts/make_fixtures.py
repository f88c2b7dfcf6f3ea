#!/usr/bin/env python3
"""Generate the speech fixtures the voice tests and the benchmark use (16 kHz mono WAVs).

    .venv/bin/python scripts/make_fixtures.py [--out DIR]

Piper (the joe voice) speaks the accuracy fixtures, espeak-ng the robustness ones; there
are also silence and noise, which must transcribe to nothing. The WAVs are regenerated,
never committed: a manifest.json beside them records each file's text, and a second run
with the same fixture list does nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / ".venv" / "cache" / "voice-fixtures"

# name -> (engine, text); "kind" fixtures silence/noise have no text.
SPEECH = {
    "piper_rename": ("piper", "Rename the screenshots on my desktop by date."),
    "piper_click": ("piper", "Click the save button."),
    "piper_disk": ("piper", "How much space is left on my disk?"),
    "piper_email": (
        "piper",
        "Open my downloads folder, find the largest file, and tell me what it is. "
        "Then move it to the archive folder.",
    ),
    "piper_long": (
        "piper",
        "Please list every photo I took last week, sort them by size, and copy the five "
        "biggest ones into a new folder on the desktop called highlights. When you are "
        "done, tell me how much space they take together.",
    ),
    "espeak_weather": ("espeak-ng", "What is the weather like today?"),
    "espeak_open": ("espeak-ng", "Open the terminal and list the files."),
}
QUIET = {"silence": 2.0, "noise": 2.0}


def spec_hash() -> str:
    spec = [SPEECH, QUIET, "steady piper, length 1.1"]
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]


def quiet_audio(kind: str, seconds: float):
    import numpy as np

    count = int(seconds * 16000)
    if kind == "silence":
        return np.zeros(count, dtype=np.float32)
    rng = np.random.default_rng(7)
    return (rng.standard_normal(count) * 0.05).astype(np.float32)


def make(out: Path) -> dict[str, dict[str, object]]:
    """Write every fixture into `out` unless the manifest there is current; return it."""
    from assistant.voice.tts import make_engine
    from assistant.voice.wav import SAMPLE_RATE, resample, write_wav

    manifest_path = out / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("spec") == spec_hash() and all(
            (out / f"{name}.wav").exists() for name in manifest["fixtures"]
        ):
            return manifest["fixtures"]
    out.mkdir(parents=True, exist_ok=True)
    engines = {}
    fixtures: dict[str, dict[str, object]] = {}
    for name, (engine_name, text) in SPEECH.items():
        if engine_name not in engines:
            engines[engine_name] = make_engine(engine_name)
        audio, rate = engines[engine_name].synthesize(text)
        audio = resample(audio, rate)
        write_wav(out / f"{name}.wav", audio)
        fixtures[name] = {"text": text, "engine": engine_name,
                          "seconds": round(len(audio) / SAMPLE_RATE, 3)}
    for name, seconds in QUIET.items():
        write_wav(out / f"{name}.wav", quiet_audio(name, seconds))
        fixtures[name] = {"text": "", "engine": name, "seconds": seconds}
    manifest_path.write_text(json.dumps({"spec": spec_hash(), "fixtures": fixtures}, indent=2))
    return fixtures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    args = parser.parse_args(argv)
    try:
        fixtures = make(args.out)
    except Exception as exc:
        print(f"make_fixtures: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"{len(fixtures)} fixtures in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
