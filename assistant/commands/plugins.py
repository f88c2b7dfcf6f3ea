"""`assistant plugins [--json]`: the installed plugins, what each adds, and those skipped."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="assistant plugins",
        description="List installed plugins (entry points in the 'assistant' group).")
    parser.add_argument("--json", action="store_true",
                        help="a JSON object: loaded plugins and problems")
    args = parser.parse_args(argv)

    from assistant.plugins.registry import installed

    found = installed()
    if args.json:
        print(json.dumps({"plugins": [dataclasses.asdict(p) for p in found.loaded],
                          "problems": found.problems}, indent=2))
        return 0
    for problem in found.problems:
        print(f"assistant plugins: {problem}", file=sys.stderr)
    if not found.loaded:
        print("no plugins installed (a plugin is a package with an entry point in the "
              "'assistant' group)")
    for plugin in found.loaded:
        adds = ", ".join(plugin.adds) or "nothing"
        print(f"{plugin.name}  {plugin.package} {plugin.version}  adds: {adds}")
    return 0
