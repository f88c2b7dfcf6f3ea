"""`assistant tools [--json]`: every tool the LLM is offered, where it comes from, its risk.

The configured MCP servers are started to ask for their tools (and stopped again); one
that fails is said on stderr in one line and the rest are listed.
"""

from __future__ import annotations

import argparse
import json
import sys

from assistant.config import load_settings

# `execute` is rated per proposal, by the static check of the code it is given.
EXECUTE_RISK = "per-code"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="assistant tools",
        description="List the tools offered to the LLM: name, source, risk, description.")
    parser.add_argument("--json", action="store_true", help="a JSON list of objects")
    parser.add_argument("--profile", help="a TOML profile from the config folder's profiles/")
    args = parser.parse_args(argv)

    from assistant.actions.parts import toolbox_for
    from assistant.llm.tools import EXECUTE_TOOL

    settings = load_settings({"profile": args.profile})
    execute = EXECUTE_TOOL["function"]
    rows = [{"name": "execute", "source": "builtin", "risk": EXECUTE_RISK,
             "description": execute["description"].split(". ")[0] + "."}]
    toolbox = toolbox_for(settings, lambda problem: None)  # `assistant plugins` says those
    if toolbox is not None:
        try:
            for problem in toolbox.start():
                print(f"assistant tools: {problem}", file=sys.stderr)
            rows += [tool.to_dict() for tool in toolbox.listing()]
        finally:
            toolbox.close()
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    widths = {key: max(len(row[key]) for row in rows) for key in ("name", "source", "risk")}
    for row in rows:
        print("  ".join(row[key].ljust(widths[key]) for key in widths), row["description"])
    return 0
