"""The "Type a request…" window: one line of text for when speaking is not possible.

It lives on the popup's Tk thread (reach it through `Popup.call`); Enter sends the text,
Esc or closing the window drops it.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from typing import Any

TITLE = "assistant: type a request"


class RequestEntry:
    """At most one entry window at a time; showing it again brings it forward."""

    def __init__(self, on_text: Callable[[str], None]) -> None:
        self._on_text = on_text
        self._top: tk.Toplevel | None = None
        self.entry: tk.Entry | None = None

    def show(self, window: Any) -> None:
        """Open (or raise) the entry; `window` is the popup's window (its Tk root)."""
        if self._top is None or not self._top.winfo_exists():
            self._build(window.root)
        assert self._top is not None and self.entry is not None
        self._top.deiconify()
        self._top.attributes("-topmost", True)
        self._top.lift()
        self._top.focus_force()
        self.entry.focus_set()

    def _build(self, root: tk.Misc) -> None:
        top = tk.Toplevel(root, padx=12, pady=10)
        top.title(TITLE)
        top.resizable(False, False)
        tk.Label(top, text="What should I do?", anchor="w").pack(fill="x")
        entry = tk.Entry(top, width=60)
        entry.pack(fill="x", pady=(4, 0))
        entry.bind("<Return>", lambda _event: self._send())
        entry.bind("<KP_Enter>", lambda _event: self._send())
        top.bind("<Escape>", lambda _event: self.close())
        top.protocol("WM_DELETE_WINDOW", self.close)
        top.update_idletasks()
        x = top.winfo_screenwidth() - top.winfo_reqwidth() - 16
        y = top.winfo_screenheight() - top.winfo_reqheight() - 56
        top.geometry(f"+{max(x, 0)}+{max(y, 0)}")
        self._top, self.entry = top, entry

    def _send(self) -> None:
        text = self.entry.get().strip() if self.entry is not None else ""
        self.close()
        if text:
            self._on_text(text)

    def close(self) -> None:
        if self._top is not None:
            self._top.destroy()
        self._top = self.entry = None

    def visible(self) -> bool:
        return self._top is not None and bool(self._top.winfo_viewable())
