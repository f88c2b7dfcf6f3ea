"""The confirmation popup's window: the request and the LLM's words as they stream, then
summary, highlighted code, risk, buttons, live output and the answer.

Everything here runs on the one thread that owns Tk; `assistant.ui.popup` decides what to
show and when, and is the only way other threads reach this window.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import font as tkfont
from typing import Any

from pygments.styles import get_style_by_name
from pygments.token import Token, _TokenType

from assistant.events import Proposal
from assistant.ui.focus import FocusKeeper
from assistant.ui.highlight import code_lexer
from assistant.ui.summary import effect_lines

STYLE = "friendly"
RISK_COLOURS = {"low": "#2e7d32", "medium": "#e65100", "high": "#c62828", "blocked": "#c62828"}
RIGHT_MARGIN = 16  # px from the screen's right edge
BOTTOM_MARGIN = 56  # px from the bottom: room for the panel that holds the tray
CODE_LINES = 14
OUTPUT_LINES = 8
STREAM_LINES = 8
DRAFT_LINES = 4  # of the code being written, below the plan
WIDTH_CHARS = 80
SHOW_CODE, HIDE_CODE = "Show code", "Hide code"
CLAIM = "The model's plan: "
"""Before the plan's words under a previewed effect: they are its claim, the effect is fact."""
BACKGROUND = "#fafafa"
EDIT_BACKGROUND = "#fffde7"
TITLES = {  # the title says what the window waits for: tests and scripts find it by its title
    "idle": "assistant",
    "thinking": "assistant: thinking",
    "asking": "assistant: run this?",
    "running": "assistant: running",
    "answered": "assistant: answer",
}


class PopupWindow:
    """The widgets, laid out once and refilled for each proposal; starts hidden."""

    def __init__(self, on_run: Callable[[], None], on_edit: Callable[[], None],
                 on_cancel: Callable[[], None], on_escape: Callable[[], None]) -> None:
        self.root = root = tk.Tk(className="assistant-popup")
        root.withdraw()
        root.title(TITLES["idle"])
        root.configure(background=BACKGROUND, padx=12, pady=10)
        root.resizable(False, False)
        root.protocol("WM_DELETE_WINDOW", on_escape)
        self.editing = False
        self.language = "text"
        self._style = get_style_by_name(STYLE)
        mono = tkfont.nametofont("TkFixedFont").actual()
        self._fonts = {
            (bold, italic): tkfont.Font(root=root, family=mono["family"], size=mono["size"],
                                        weight="bold" if bold else "normal",
                                        slant="italic" if italic else "roman")
            for bold in (False, True) for italic in (False, True)
        }
        self._on_run = on_run
        self._on_escape = on_escape
        self.keeper = FocusKeeper()
        root.bind("<FocusIn>", lambda _event: self.keeper.give_back(), add="+")
        self._build(on_run, on_edit, on_cancel)

    def _build(self, on_run: Callable[[], None], on_edit: Callable[[], None],
               on_cancel: Callable[[], None]) -> None:
        root = self.root
        label: dict[str, Any] = {"background": BACKGROUND, "anchor": "w", "justify": "left",
                                 "wraplength": 620}
        heading = tkfont.nametofont("TkDefaultFont").actual()
        self.request = tk.Label(root, foreground="#555",
                                font=(heading["family"], heading["size"], "italic"), **label)
        self.summary = tk.Label(root, font=(heading["family"], heading["size"] + 2, "bold"),
                                **label)
        self.meta = tk.Label(root, **label)
        self.reasons = tk.Label(root, **label)
        self.effect = tk.Label(root, **label)
        self.code = tk.Text(root, width=WIDTH_CHARS, height=CODE_LINES, wrap="none",
                            font=self._fonts[False, False], background="white",
                            relief="solid", borderwidth=1, undo=True)
        buttons = tk.Frame(root, background=BACKGROUND)
        self.run_button = tk.Button(buttons, text="Run  ⏎", width=10, command=on_run,
                                    default="active")
        self.edit_button = tk.Button(buttons, text="Edit", width=10, command=on_edit)
        self.cancel_button = tk.Button(buttons, text="Cancel  Esc", width=10, command=on_cancel)
        self.code_button = tk.Button(buttons, text=SHOW_CODE, width=10, command=self.toggle_code)
        self.waiting = tk.Label(buttons, background=BACKGROUND, foreground="#555")
        for column, widget in enumerate((self.run_button, self.edit_button, self.cancel_button,
                                         self.code_button)):
            widget.grid(row=0, column=column, padx=(0, 8))
        self.waiting.grid(row=0, column=4, padx=(8, 0))
        self.output = tk.Text(root, width=WIDTH_CHARS, height=OUTPUT_LINES, wrap="char",
                              font=self._fonts[False, False], background="#263238",
                              foreground="#eceff1", relief="flat", state="disabled")
        self.output.tag_configure("stderr", foreground="#ff8a80")
        self.output.tag_configure("status", foreground="#a5d6a7")
        self.stream = tk.Text(root, width=WIDTH_CHARS, height=1, wrap="word",
                              background=BACKGROUND, relief="flat", borderwidth=0,
                              highlightthickness=0, state="disabled",
                              font=self._fonts[False, False])
        self.answer = tk.Label(root, **label)
        self._words = self._draft = ""  # what the stream shows: words, then code being written
        self.request.grid(row=0, column=0, sticky="we", pady=(0, 4))
        self.summary.grid(row=1, column=0, sticky="we")
        self.meta.grid(row=2, column=0, sticky="we", pady=(4, 0))
        self.effect.grid(row=3, column=0, sticky="we")
        self.reasons.grid(row=4, column=0, sticky="we")
        self.code.grid(row=5, column=0, sticky="we", pady=6)
        self._buttons = buttons
        buttons.grid(row=6, column=0, sticky="w")
        self.output.grid(row=7, column=0, sticky="we", pady=(8, 0))
        self.stream.grid(row=8, column=0, sticky="we", pady=(6, 0))
        self.answer.grid(row=9, column=0, sticky="we", pady=(6, 0))
        self._parts = (self.request, self.meta, self.effect, self.reasons, self.code, buttons,
                       self.output, self.stream)
        self._only(self.meta, self.code, buttons)
        root.bind("<Return>", self._return)
        root.bind("<KP_Enter>", self._return)
        root.bind("<Escape>", lambda _event: self._on_escape())
        self.code.bind("<Control-Return>", self._control_return)
        self.code.bind("<KeyRelease>", lambda _event: self.root.after_idle(self._rehighlight))

    def _only(self, *shown: tk.Widget) -> None:
        """Show these of the optional parts, hide the others."""
        for widget in self._parts:
            if widget in shown:
                widget.grid()
            else:
                widget.grid_remove()

    def show_request(self, request: str, note: str = "") -> None:
        """The panel of a turn that has just begun: the request as heard, and "Thinking…"
        until the LLM's words arrive."""
        self.editing = False
        self.request.configure(text=f"“{request}”" + (f"\n{note}" if note else ""))
        self.summary.configure(text="Thinking…")
        self._clear_stream()
        self.answer.configure(text="")
        self._only(self.request)
        self.root.title(TITLES["thinking"])

    def append_stream(self, text: str) -> None:
        """The LLM's words (and code) as they stream, below what is shown."""
        self._words += text
        self._show_stream()

    def show_draft(self, language: str, code: str) -> None:
        """The code of a tool call as the model writes it, after its words: its last lines
        only, so the plan above stays in view (the proposal shows the code whole)."""
        lines = code.split("\n")
        if len(lines) > DRAFT_LINES:
            lines = ["…", *lines[1 - DRAFT_LINES:]]
        self._draft = f"\n```{language}\n" + "\n".join(lines)
        self._show_stream()

    def drop_draft(self) -> None:
        """The code being written will not be proposed (its try failed): off the screen."""
        self._draft = ""
        self._show_stream()

    def _show_stream(self) -> None:
        self._set_stream(self._words + self._draft)
        if not self.stream.winfo_ismapped() and self.stream.get("1.0", "end-1c").strip():
            self.stream.grid()
        self.place()

    def _clear_stream(self) -> None:
        self._words = self._draft = ""
        self._set_stream("")

    def _set_stream(self, text: str) -> None:
        self.stream.configure(state="normal")
        self.stream.delete("1.0", "end")
        self.stream.insert("1.0", text.lstrip())
        last = self.stream.search(r"\S", "end", backwards=True, regexp=True) or "1.0"
        counted = self.stream.count("1.0", last, "displaylines")  # blank lines at the end
        lines = (counted[0] if counted else 0) + 1  # are not worth a line of the screen
        self.stream.configure(height=max(1, min(STREAM_LINES, lines)), state="disabled")
        self.stream.see(last)

    def show_message(self, text: str, error: bool = False) -> None:
        """A message on its own (an answer or an error nobody else could show)."""
        self.summary.configure(text="assistant")
        self._only()
        self.show_answer(text, error)

    def _return(self, event: tk.Event) -> None:
        if self.editing and event.widget is self.code:
            return  # a new line in the code being edited, not a Run
        if str(self.run_button["state"]) == "normal" and self._buttons.winfo_ismapped():
            self._on_run()

    def _control_return(self, _event: tk.Event) -> str:
        self._on_run()
        return "break"

    def show_proposal(self, proposal: Proposal, summary: str, waiting: int) -> None:
        """Fill the window with one proposal, read-only until Edit is pressed."""
        self.language = proposal.language
        effect = proposal.effect
        self.summary.configure(text=effect.summary if effect else summary)
        colour = RISK_COLOURS.get(proposal.risk, "black")
        self.meta.configure(text=f"{proposal.language} · risk: {proposal.risk}", foreground=colour)
        reasons = "\n".join(f"• {reason}" for reason in proposal.reasons)
        self.reasons.configure(text=reasons, foreground=colour)
        claim = [f"{CLAIM}{summary}"] if effect and summary and summary != effect.summary else []
        self.effect.configure(text="\n".join([*effect_lines(effect)[1:], *claim])
                              if effect else "")
        self.code_button.configure(text=HIDE_CODE if effect and effect.harmless else SHOW_CODE)
        if effect:
            self.code_button.grid()
        else:
            self.code_button.grid_remove()
        self._only(self.meta, self._buttons,
                   *([] if effect and not effect.harmless else [self.code]),
                   *([self.request] if self.request.cget("text") else []),
                   *([self.effect] if self.effect.cget("text") else []),
                   *([self.reasons] if reasons else []))
        self.editing = False
        code = proposal.code.replace("\r\n", "\n")
        lines = max(3, min(CODE_LINES, code.count("\n") + 1))
        self.code.configure(state="normal", background="white", height=lines)
        self.code.delete("1.0", "end")
        self.code.insert("1.0", code)
        self.code.edit_reset()
        self._rehighlight()
        self.code.configure(state="disabled")
        self.set_waiting(waiting)
        self.edit_button.configure(state="normal")
        self._clear_stream()  # its words are the header now, its code is above
        self.answer.configure(text="")
        self.root.title(TITLES["asking"])

    def set_waiting(self, count: int) -> None:
        self.waiting.configure(text=f"{count} more waiting" if count else "")

    def toggle_code(self) -> None:
        """Show or hide the code under the effect (it is shown at once without one)."""
        shown = bool(self.code.winfo_manager())
        if shown:
            self.code.grid_remove()
        else:
            self.code.grid()
        self.code_button.configure(text=SHOW_CODE if shown else HIDE_CODE)

    def start_editing(self) -> None:
        self.code.grid()
        self.code_button.configure(text=HIDE_CODE)
        self.editing = True
        self.code.configure(state="normal", background=EDIT_BACKGROUND)
        self.edit_button.configure(state="disabled")
        self.code.focus_set()
        self.code.mark_set("insert", "end-1c")

    def code_text(self) -> str:
        return self.code.get("1.0", "end-1c")

    def _rehighlight(self) -> None:
        """Tag the code with pygments tokens; rerun while editing so new code is coloured."""
        for tag in self.code.tag_names():
            if tag.startswith("Token"):
                self.code.tag_remove(tag, "1.0", "end")
        offset = 0
        for token, value in code_lexer(self.language).get_tokens(self.code_text()):
            tag = self._tag(token)
            if tag and value:
                self.code.tag_add(tag, f"1.0+{offset}c", f"1.0+{offset + len(value)}c")
            offset += len(value)

    def _tag(self, token: _TokenType) -> str:
        """The Tk tag for a token type, configured from the pygments style on first use."""
        if token in (Token, Token.Text, Token.Text.Whitespace):
            return ""
        name = str(token)
        if name not in self.code.tag_names():
            style = self._style.style_for_token(token)
            options: dict[str, Any] = {"font": self._fonts[bool(style["bold"]),
                                                           bool(style["italic"])]}
            if style["color"]:
                options["foreground"] = f"#{style['color']}"
            self.code.tag_configure(name, **options)
        return name

    def show_running(self) -> None:
        """The decision is made: hide the buttons and show the output pane."""
        self.editing = False
        self.code.configure(state="disabled", background="white")
        self._buttons.grid_remove()
        self.output.grid()
        self.root.title(TITLES["running"])
        self.place()

    def clear_output(self) -> None:
        self.output.configure(state="normal")
        self.output.delete("1.0", "end")
        self.output.configure(state="disabled")
        self.output.grid_remove()
        self.request.configure(text="")
        self._clear_stream()
        self.answer.configure(text="")

    def append_output(self, text: str, tag: str = "") -> None:
        self.output.configure(state="normal")
        self.output.insert("end", text, (tag,) if tag else ())
        self.output.see("end")
        self.output.configure(state="disabled")

    def output_text(self) -> str:
        return self.output.get("1.0", "end-1c")

    def show_answer(self, text: str, error: bool = False) -> None:
        self.stream.grid_remove()  # the answer is shown whole instead
        self.answer.configure(text=text, foreground="#c62828" if error else "black")
        if self.root.title() != TITLES["asking"]:
            self.root.title(TITLES["answered"])
        self.place()

    def reveal(self, focus: bool = True) -> None:
        """Show the window on top, near the bottom-right corner, with the keyboard focus
        unless `focus` is False (the panel of a turn must not take it from the user's
        window).

        Placed before it is mapped: a window mapped first opens where Tk put it, the
        top-left corner, and only then moves (or, under some window managers, stays)."""
        self.place()
        if focus:
            self.keeper.forget()
        elif not self.visible():  # a window manager that focuses it: given back (focus.py)
            self.keeper.note()
        self.root.deiconify()
        self.root.attributes("-topmost", True)
        self.root.lift()
        if focus:
            self.root.focus_force()

    def place(self) -> None:
        """Keep the bottom-right corner where the tray is, whatever the window's height."""
        self.root.update_idletasks()
        width, height = self.root.winfo_reqwidth(), self.root.winfo_reqheight()
        x = self.root.winfo_screenwidth() - width - RIGHT_MARGIN
        y = self.root.winfo_screenheight() - height - BOTTOM_MARGIN
        self.root.geometry(f"+{max(x, 0)}+{max(y, 0)}")

    def hide(self) -> None:
        self.root.withdraw()

    def frame(self) -> int:
        """The X id of the window, or of the frame a window manager put it in."""
        return int(self.root.wm_frame(), 16)

    def visible(self) -> bool:
        return bool(self.root.winfo_viewable())

    def destroy(self) -> None:
        self.root.destroy()
