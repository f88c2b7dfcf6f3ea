"""The incumbent measured beside us: open-interpreter in its own venv (.bench/).

`python -m benchmarks.bench --peers` calls `measure()`. The incumbent is installed from PyPI into
.bench/ (made once, reused), and its figures are taken by a small script run with that
venv's python as a subprocess, so none of its code or imports enters our process.
It cannot phone home where that is avoidable: its telemetry is off (flag and variable),
it runs offline (no hosted OCR), litellm uses its bundled price list, and where this
machine allows an empty network namespace (`unshare --net`) it runs in one.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.venv import ROOT

PEER = "open-interpreter 0.4.3"
PEER_VENV = ROOT / ".bench"
PEER_BIN = PEER_VENV / "bin"
# The incumbent, the parts its offline click-by-text needs (its "os" extra would pull
# torch), and matplotlib, which draws the chart from this venv, not ours.
PEER_PACKAGES = [
    "open-interpreter==0.4.3",
    "pyautogui==0.9.54",
    "pytesseract==0.3.13",
    "opencv-python-headless==5.0.0.93",
    "screeninfo==0.8.1",
    "pywinctl==0.3",
    "matplotlib==3.11.2",
]
IMPORTS = ["interpreter", "pyautogui", "pytesseract", "cv2", "pywinctl", "matplotlib"]
QUIET_ENV = {
    "DISABLE_TELEMETRY": "true",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "HF_HUB_OFFLINE": "1",
    "PYTHONWARNINGS": "ignore",
    "MPLBACKEND": "Agg",
    "XDG_SESSION_TYPE": "x11",  # what an X desktop session sets; its window lookup needs it
}

# Runs inside .bench/ with the incumbent: python PEER_SCRIPT REQUEST_JSON -> one JSON line.
PEER_SCRIPT = r'''
import json, statistics, sys, time
request = json.loads(sys.argv[1])
out = {}
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
before = rss_mb()
from interpreter import interpreter
out["import_rss_mb"] = rss_mb()
interpreter.disable_telemetry = True
interpreter.offline = True
interpreter.computer.offline = True
def median_ms(action, n):
    action()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)
for name, language, code in request["runs"]:
    def once(language=language, code=code):
        result = interpreter.computer.run(language, code)
        text = "".join(str(r.get("content", "")) for r in result if r.get("type") == "console")
        if "1" not in text:
            raise RuntimeError(f"{language} printed {text!r}")
    try:
        out[name] = median_ms(once, request["n"])
    except Exception as exc:
        out[name] = f"{type(exc).__name__}: {exc}"[:300]
for name, target, n in request["clicks"]:
    try:
        out[name] = median_ms(lambda: interpreter.computer.mouse.click(target), n)
    except BaseException as exc:
        out[name] = f"{type(exc).__name__}: {exc}"[:300]
interpreter.computer.terminate()
print(json.dumps(out))
'''


def ensure_venv() -> Path:
    """The incumbent's venv, made and filled on first use; its python."""
    python = PEER_BIN / "python"
    if not (PEER_BIN / "interpreter").exists():
        print(f"bench: installing {PEER} into {PEER_VENV} ...", file=sys.stderr, flush=True)
        if not python.exists():
            venv.create(PEER_VENV, with_pip=True)
    check = f"import importlib.util as u; exit(any(u.find_spec(m) is None for m in {IMPORTS}))"
    missing = subprocess.run([str(python), "-c", check], capture_output=True, check=False,
                             timeout=60).returncode
    if missing:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PEER_PACKAGES], check=True)
    return python


def peer_env() -> dict[str, str]:
    return {**os.environ, **QUIET_ENV}


def sealed(args: list[str]) -> list[str]:
    """`args` in a network namespace with only loopback (its Jupyter kernels talk over
    127.0.0.1) when this machine allows one, else as is."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return args
    wrap = ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"]
    probe = subprocess.run([*wrap, "true"], capture_output=True, check=False, timeout=30)
    return [*wrap, *args] if probe.returncode == 0 else args


def help_s(n: int) -> float:
    """A fresh `interpreter --help`, like our help_s."""
    exe = str(PEER_BIN / "interpreter")
    times = []
    for index in range(n + 1):
        start = time.perf_counter()
        subprocess.run(sealed([exe, "--help"]), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=peer_env(), timeout=120, check=True)
        if index:  # the first run compiles its bytecode
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_script(python: Path, request: dict[str, Any], network: bool = False) -> dict[str, Any]:
    """Run PEER_SCRIPT with `request`; its figures (a str where one failed)."""
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as folder:
        script = Path(folder) / "peer.py"
        script.write_text(PEER_SCRIPT)
        args = [str(python), str(script), json.dumps(request)]
        done = subprocess.run(args if network else sealed(args), capture_output=True,
                              text=True, env=peer_env(), cwd=folder, timeout=300,
                              stdin=subprocess.DEVNULL, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the {PEER} script exited {done.returncode}: {done.stderr[-400:]}")
    return json.loads(lines[-1])


def clicks(display: Callable[[], str], python: Path, n: int) -> dict[str, Any]:
    """Its offline click-by-text on the same Tk windows as ours, checked by their logs."""
    from tests.support.tk_app import TkApp

    if shutil.which("tesseract") is None:
        return {name: "tesseract is not installed" for name in CLICKS}
    display()
    found: dict[str, Any] = {}
    for name, (layout, target) in CLICKS.items():
        with (tempfile.TemporaryDirectory() as folder,
              TkApp(Path(folder) / "events.jsonl", layout=layout) as app):
            start = app.mark()
            # X11 abstract sockets are per network namespace: the display needs ours.
            value = run_script(python, {"runs": [], "n": 0, "clicks": [[name, target, n]]},
                               network=True)[name]
            hits = [r for r in app.records()[start:]
                    if r["event"] == "click" and r["widget"] == target]
            if isinstance(value, float) and len(hits) < n + 1:
                value = f"{len(hits)} of {n + 1} clicks reached {target!r}"
            found[name] = value
    return found


CLICKS = {
    "click_text_sparse_ms": ("buttons", "Apply"),
    "click_text_dense_ms": ("dense", "Confirm"),
}
RUNS = [
    ("run_python_ms", "python", "print(1)"),
    ("run_shell_ms", "shell", "echo 1"),
    ("run_js_ms", "javascript", "console.log(1)"),
]


def our_import_rss_mb() -> float:
    """RSS of a fresh process of ours after `import assistant`, the peer's import_rss_mb."""
    code = ("import assistant\nfor line in open('/proc/self/status'):\n"
            "    if line.startswith('VmRSS:'): print(int(line.split()[1]) / 1024)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT, timeout=60)
    return float(done.stdout.strip())


def measure(
    bench: Any, display: Callable[[], str]
) -> tuple[dict[str, float | None], dict[str, str]]:
    """The incumbent's figures by our names, and the reasons for those that are null.

    `display` starts (once) the Xvfb our own desktop figures use, and returns its name.
    """
    values: dict[str, float | None] = {}
    reasons: dict[str, str] = {}
    python = ensure_venv()
    print(f"bench: {PEER} --help ...", file=sys.stderr, flush=True)
    try:  # a peer that fails or hangs costs its figure, never ours measured before it
        values["help_s"] = help_s(bench.reps(5, 3))
    except (subprocess.SubprocessError, OSError) as exc:
        values["help_s"] = None
        reasons["help_s"] = f"{type(exc).__name__}: {exc}"
    print(f"bench: {PEER} runs ...", file=sys.stderr, flush=True)
    try:
        got = run_script(python, {"runs": RUNS, "n": bench.reps(20, 10), "clicks": []})
    except (RuntimeError, subprocess.SubprocessError, OSError) as exc:
        got = {name: f"{type(exc).__name__}: {exc}" for name, _, _ in RUNS}
    print(f"bench: {PEER} clicks ...", file=sys.stderr, flush=True)
    try:
        got.update(clicks(display, python, bench.reps(3, 1)))
    except Exception as exc:
        got.update({name: f"{type(exc).__name__}: {exc}" for name in CLICKS})
    for name, value in got.items():
        if isinstance(value, (int, float)):
            values[name] = float(value)
        else:
            values[name] = None
            reasons[name] = str(value)
    return values, reasons
