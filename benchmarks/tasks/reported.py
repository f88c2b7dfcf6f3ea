"""The check kinds of desktop tasks: what the task's programs reported, never the
assistant's words (tasks_desktop.Reports: exit status, output, accessible tree, the
forms posted to the task's pages). Each returns None when its part is done, else one line.
"""

from __future__ import annotations

from typing import Any

from benchmarks.tasks.reading import Context


def reported(c: Context, name: str) -> Any:
    if c.reports is None:
        raise ValueError("this check reads a desktop task's programs; the task has no desktop")
    if name not in c.reports.programs:
        raise ValueError(f"no program named {name!r} was started")
    return c.reports.programs[name]


def exited(c: Context, a: dict[str, Any]) -> str | None:
    """The program ended by itself with this status (or one of these)."""
    got = reported(c, a["program"]).status
    if got is None:
        return f"{a['program']} was still open when the turn ended"
    want = a["status"] if isinstance(a["status"], list) else [a["status"]]
    return None if got in want else f"{a['program']} exited {got}, not {a['status']}"


def printed(c: Context, a: dict[str, Any]) -> str | None:
    """What the program printed, its last line break aside: this `text`, one of `one_of`,
    or (`items` with `separator`) exactly these items in any order. `case` false: case
    aside."""
    out = reported(c, a["program"]).stdout.removesuffix("\n")
    a = {k: v.replace("{folder}", str(c.folder)) if isinstance(v, str) else v
         for k, v in a.items()}
    fold = (lambda s: s) if a.get("case", True) else str.casefold
    if "items" in a:
        got = sorted(fold(i) for i in out.split(a.get("separator", "|")) if out)
        ok = got == sorted(fold(str(i)) for i in a["items"])
    else:
        wanted = [a["text"]] if "text" in a else a["one_of"]
        ok = fold(out) in [fold(str(w)) for w in wanted]
    return None if ok else f"{a['program']} printed {out[:80]!r}"


def posted(c: Context, a: dict[str, Any]) -> str | None:
    """A form was posted to `path` whose fields hold these values (blanks at the ends and,
    with `case` false, case aside); `only`: and no other form was posted."""
    if c.reports is None:
        raise ValueError("this check reads a desktop task's pages; the task has no desktop")
    posts = [p for p in c.reports.posts if p["path"] == a["path"]]
    if not posts:
        return f"nothing was posted to {a['path']}"
    if a.get("only") and len(c.reports.posts) != 1:
        return f"{len(c.reports.posts)} forms were posted, not one"

    def same(got: Any, want: Any) -> bool:
        got, want = str(got if got is not None else "").strip(), str(want).strip()
        return got == want if a.get("case", True) else got.casefold() == want.casefold()

    for post in posts:
        if all(same(post["fields"].get(k), v) for k, v in a["fields"].items()):
            return None
    return f"posted to {a['path']}: {posts[-1]['fields']}"


def widget(c: Context, a: dict[str, Any]) -> str | None:
    """In the program's accessible tree at the end of the turn, a node of this role and
    name has every state of `has` and none of `lacks` (and this `text`, if given)."""
    tree = reported(c, a["program"]).tree
    nodes = [n for n in tree if n["role"] == a["role"] and n["name"] == a["name"]]
    if not nodes:
        errors = [n["name"] for n in tree if n["role"] == "error"]
        return (f"no {a['role']} {a['name']!r} in {a['program']}'s tree"
                + (f" ({errors[0]})" if errors else ""))
    for node in nodes:
        states = set(node["states"])
        if set(a.get("has", [])) <= states and not states & set(a.get("lacks", [])) \
                and ("text" not in a or node.get("text", "").strip() == a["text"]):
            return None
    node = nodes[0]
    return f"{a['role']} {a['name']!r} is {sorted(node['states'])} {node.get('text', '')!r}"


# name -> (function, required fields, optional fields, bare, one of): checks.py's Kind
KINDS: dict[str, tuple[Any, ...]] = {
    "exited": (exited, ("program", "status"), ()),
    "printed": (printed, ("program",), ("text", "one_of", "items", "separator", "case"), "",
                ("text", "one_of", "items")),
    "posted": (posted, ("path", "fields"), ("only", "case")),
    "widget": (widget, ("program", "role", "name"), ("has", "lacks", "text"), "",
               ("has", "lacks", "text")),
}
