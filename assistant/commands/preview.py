"""`assistant preview [--language L] [--json] FILE|-`: what a snippet would do to files.

The code runs once in a what-if world over the current folder (see assistant/whatif):
the effect is printed, and the folder is left as it was. Code the risk check blocks is
never run, not even there; the rest is rated by its code and then by its effect, as
approval = "auto" rates it: a run that has not shown it is harmless is medium, and says why
it would ask (`asks`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from assistant.commands.check import LANGUAGES, SUFFIXES
from assistant.config import load_settings
from assistant.events import Effect


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="assistant preview",
        description="Run a snippet in a copy-on-write view of home and this folder, and say "
                    "what it would create, change, delete and move. Nothing here changes.")
    parser.add_argument("file", help="the code to preview, or - to read it from stdin")
    parser.add_argument("--language", "-l", choices=LANGUAGES,
                        help="the snippet's language (default: from the file name, else python)")
    parser.add_argument("--json", action="store_true", help="print the effect as JSON")
    args = parser.parse_args(argv)
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
        code = data.decode("utf-8")
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{'stdin' if args.file == '-' else args.file} is not UTF-8 text: "
                     "give it source code")

    from assistant.actions import parts
    from assistant.checks.labels import actual_language
    from assistant.safety.policy import UNPROVEN
    from assistant.whatif.preview import Preview, finished, preview

    language = args.language or SUFFIXES.get(Path(args.file).suffix.lower()) or \
        actual_language("python", code)
    settings = load_settings()
    policy = parts.policy(settings.replace(approval="auto"), None)  # rated as auto acts
    rated = policy.proposal("preview", language, code)
    if rated.risk == "blocked":
        why = f"the risk check blocks this code ({'; '.join(rated.reasons)})"
        result = Preview(Effect(unpreviewable=(why,), summary=f"Not previewed: {why}."), (), why)
    else:  # the runtimes a conversation has, but for undo: nothing here runs for real
        with parts.runtimes(settings.replace(undo=False), _say, cwd=os.getcwd()) as runtimes:
            result = finished(preview(runtimes, language, code, hidden=settings.own_paths))
    effect = result.effect
    if not result.problem:  # a preview that failed to be made shows no effect
        rated = policy.proposal("preview", language, code, effect)
    asks = next((r.removeprefix(UNPROVEN + ": ") for r in rated.reasons
                 if r.startswith(UNPROVEN + ":")), "")
    if args.json:
        print(json.dumps({**as_json(effect, rated.risk), "asks": asks}, indent=2))
    else:
        print(text(effect, rated.risk) + (f"\n{asks}" if asks else ""))
    return 1 if result.problem else 0


def as_json(effect: Effect, risk: str) -> dict[str, object]:
    """The effect under the names `assistant preview --json` promises."""
    return {"created": list(effect.created), "modified": list(effect.modified),
            "deleted": list(effect.deleted), "moved": [list(pair) for pair in effect.moved],
            "exit": effect.exit_status, "output": effect.output,
            "unpreviewable": list(effect.unpreviewable), "summary": effect.summary,
            "risk": risk, "sizes": effect.sizes}


def text(effect: Effect, risk: str) -> str:
    """The effect for a person: the sentence first, then each path."""
    lines = [effect.summary]
    for label, paths in (("created", effect.created), ("modified", effect.modified),
                         ("deleted", effect.deleted)):
        lines += [f"  {label:9} {path}" for path in paths]
    lines += [f"  {'moved':9} {a} -> {b}" for a, b in effect.moved]
    lines += [f"  not covered: {why}" for why in effect.unpreviewable]
    if effect.exit_status is not None:
        lines.append(f"exit status {effect.exit_status}; risk {risk}")
    if effect.output.strip():
        lines += ["output:", effect.output.rstrip()]
    return "\n".join(lines)


def _say(line: str) -> None:
    print(f"assistant preview: {line}", file=sys.stderr)


def _fail(message: str) -> int:
    print(f"assistant preview: {message}", file=sys.stderr)
    return 2
