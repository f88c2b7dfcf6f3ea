"""How `assistant history` shows the journal: a table of conversations, or one in full."""

from __future__ import annotations

import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

SHOWN = ("user", "assistant", "proposal", "approval", "run_end", "notice", "tried", "error",
         "turn_end")


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def print_list(rows: list[dict[str, Any]], as_json: bool = False) -> None:
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    console = Console(highlight=False)
    if not rows:
        console.print("No conversations yet.")
        return
    table = Table(box=None)
    table.add_column("id", no_wrap=True, min_width=22)
    table.add_column("updated", no_wrap=True)
    table.add_column("turns", justify="right", no_wrap=True)
    table.add_column("model", no_wrap=True)
    table.add_column("title", overflow="ellipsis", no_wrap=True, ratio=1)
    for row in rows:
        table.add_row(row["id"], _when(row["updated"]), str(row["turns"]), row["model"],
                      row["title"])
    console.print(table)


def _said(record: dict[str, Any]) -> str:
    """A reply as the person saw it: without the code of a fenced reply's blocks, which
    show as their proposal or as the one line of a failed try (`shown`)."""
    return str(record.get("shown", record.get("text", "")))


def _describe(record: dict[str, Any]) -> str:
    kind = record["kind"]
    if kind == "user":
        return record.get("text", "")
    if kind == "assistant":
        return _said(record)
    if kind == "proposal":
        return f"{record['language']}:\n{record['code']}"
    if kind == "approval":
        decided = "approved" if record["approved"] else "declined"
        why = f" ({record['reason']})" if record.get("reason") else ""
        return f"{decided} by {record['decided_by']}{why}"
    if kind == "run_end":
        return f"exit {record['exit_status']} in {record['seconds']:.2f} s\n{record['output']}"
    if kind == "error":
        return str(record.get("text", record.get("message", "")))  # message: older journals
    if kind == "turn_end":
        return record["reason"]
    return record.get("text", "")


def print_conversation(conversation: dict[str, Any], as_json: bool = False) -> None:
    if as_json:
        print(json.dumps(conversation, indent=2))
        return
    console = Console(highlight=False)
    console.print(f"[bold]{conversation['id']}[/] · {conversation['model']} · "
                  f"{_when(conversation['created'])}")
    for record in conversation["records"]:
        if record["kind"] in SHOWN and (record["kind"] != "assistant" or _said(record).strip()):
            console.print(f"[dim]{_when(record['ts'])}[/] [cyan]{record['kind']}[/] ", end="")
            console.print(_describe(record), markup=False)
