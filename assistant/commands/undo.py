"""`assistant undo [--json] [--list] [RUN]`: put back what a run changed.

Every run with undo on keeps what it replaced or deleted (see assistant/whatif/undo.py);
this puts the latest run's files back, or RUN's, unless they changed since: then it says
which, in one line, and touches nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from assistant.config import load_settings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="assistant undo",
        description="Put the files a run changed back as they were (default: the latest run).")
    parser.add_argument("run", nargs="?", default="", help="the run's id (or its start)")
    parser.add_argument("--list", action="store_true", help="list the runs that can be undone")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)

    from assistant.whatif.undo import UndoError, UndoStore, undone_sentence

    store = UndoStore(load_settings().data_path / "undo")
    if args.list:
        runs = [{"run": m["run"], "time": m["time"], "summary": m["summary"],
                 "undone": m["undone"], "differences": m["differences"]} for m in store.runs()]
        if args.json:
            print(json.dumps(runs, indent=2))
        for run in [] if args.json else runs:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(run["time"]))
            state = " (undone)" if run["undone"] else ""
            print(f"{run['run']}  {when}  {run['summary']}{state}")
        return 0
    try:
        manifest = store.undo(args.run)
    except UndoError as error:
        if args.json:
            print(json.dumps({"undone": False, "error": str(error)}))
        print(f"assistant undo: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"undone": True, "run": manifest["run"],
                          "summary": manifest["summary"],
                          "paths": [entry["path"] for entry in manifest["paths"]]}))
    else:
        print(undone_sentence(manifest))
    return 0
