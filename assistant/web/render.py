"""Events and journal records as the page receives them: the journal's own JSON, with the
code of proposals and of failed tries also as highlighted HTML, and a previewed effect
also as the lines every front end shows (assistant/ui/summary.py)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter

from assistant.events import Effect, Event, Record
from assistant.ui.highlight import code_lexer
from assistant.ui.summary import effect_lines

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
    if data.get("kind") in ("proposal", "tried") and isinstance(data.get("code"), str):
        data["html"] = highlight(data.get("language", ""), data["code"])
        if isinstance(data.get("effect"), dict):
            effect = Effect(**data["effect"])
            data["effect_lines"] = effect_lines(effect)
            data["code_hidden"] = not effect.harmless  # one click away, unless nothing changes
    return data


def sse(turn_id: str, index: int, data: dict[str, Any]) -> bytes:
    """One server-sent event: the kind names it, the id says where it is in which turn."""
    body = json.dumps(data, default=str, ensure_ascii=False)
    return f"id: {turn_id}.{index}\nevent: {data.get('kind', 'event')}\ndata: {body}\n\n".encode()
