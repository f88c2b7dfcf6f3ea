"""Events and journal records as the page receives them: the journal's own JSON, with the
code of proposals also as highlighted HTML."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter

from assistant.events import Event, Record
from assistant.ui.highlight import code_lexer

STYLE = "friendly"


def highlight(language: str, code: str) -> str:
    """Code as HTML spans with pygments' short class names (styled by code.css)."""
    return pygments_highlight(code, code_lexer(language), HtmlFormatter(nowrap=True))


@lru_cache(maxsize=1)
def code_css() -> str:
    return str(HtmlFormatter(style=STYLE).get_style_defs(".code"))


def as_data(item: Event | dict[str, Any]) -> dict[str, Any]:
    """One event or journal record for the page; `html` is added where there is code."""
    data = item.to_dict() if isinstance(item, Record) else dict(item)
    if data.get("kind") == "proposal" and isinstance(data.get("code"), str):
        data["html"] = highlight(data.get("language", ""), data["code"])
    return data


def sse(turn_id: str, index: int, data: dict[str, Any]) -> bytes:
    """One server-sent event: the kind names it, the id says where it is in which turn."""
    body = json.dumps(data, default=str, ensure_ascii=False)
    return f"id: {turn_id}.{index}\nevent: {data.get('kind', 'event')}\ndata: {body}\n\n".encode()
