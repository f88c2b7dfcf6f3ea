"""Desktop actions, whichever language drives them: reading the screen is harmless, acting
on it (clicks, keys, the clipboard) needs a person, and what is typed is judged as what it
would do in a terminal, since the window with focus may be one.

The checkers name each call (`keyboard.write`, `pyautogui.press`, `xdotool type`) and feed
a Typist with what it types, in order; the Typist then hands the text to the shell rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.computer.dark import unprompted
from assistant.safety.findings import Finding, Scope

# The `computer` package's calls (README: The desktop), and those of the libraries code
# could use around it, by what they do.
KINDS = {
    "read": {"display.view", "display.screenshot", "display.text_map", "display.find_text",
             "display.size", "display.monitors", "display.viewport", "display.capture",
             "mouse.position", "windows.list", "windows.active", "windows.stacking",
             "windows.of_programs", "clipboard.read", "ocr.read", "ocr.warm",
             "ocr.engine_name", "ocr.forget",
             "ocr.tesseract_read", "ocr.regions", "a11y.elements", "a11y.status", "a11y.forget",
             "os.notify", "views.latest", "views.load", "views.since",
             "pyautogui.screenshot", "pyautogui.size", "pyautogui.position",
             "pyautogui.locateOnScreen", "pyautogui.locateAllOnScreen",
             "pyautogui.locateCenterOnScreen", "pyautogui.pixel", "pyautogui.pixelMatchesColor",
             "pyautogui.onScreen", "screen", "read", "screen_text.screen", "verbs.read",
             "tree.windows", "tree.window"},
    "save": {"display.save"},
    "act": {"press", "choose", "select", "tick", "untick", "click", "double_click", "close",
            "focus", "set", "verbs.press", "verbs.choose", "verbs.tick", "verbs.untick",
            "verbs.close", "verbs.focus", "values.set"},
    "type": {"keyboard.write", "a11y.put_text", "pyautogui.write", "pyautogui.typewrite",
             "keyboard.type", "type", "write", "typewrite", "fill", "verbs.type", "verbs.fill",
             "keyboard.typewrite"},
    "keys": {"keyboard.press", "keyboard.hotkey", "keyboard.send", "keyboard.press_and_release",
             "pyautogui.press", "pyautogui.hotkey", "pyautogui.keyDown", "pyautogui.keyUp",
             "key", "hotkey", "verbs.key"},
    "clipboard": {"clipboard.write", "pyperclip.copy", "clipboard.copy"},
}
PRESSES = {"press", "click", "double_click", "choose", "select", "verbs.press",
           "verbs.choose", "mouse.click", "mouse.double_click", "pyautogui.click",
           "pyautogui.doubleClick"}
"""The calls that press a control named by their first argument."""
DESTRUCTIVE = re.compile(
    r"\b(delete|remove|discard|erase|wipe|destroy|send|pay|purchase|buy|order|checkout|"
    r"uninstall|format|overwrite|replace|empty|trash|reset|revoke|don'?t save|"
    r"close without saving|sign out|log ?out)\b", re.IGNORECASE)
"""Buttons whose press cannot be taken back: deletes, sends, pays, uninstalls, formats."""


def destructive(name: str) -> bool:
    """Whether a button named `name` does what cannot be taken back."""
    return bool(DESTRUCTIVE.search(name))


def pressed_why(name: str, window: str = "") -> str:
    """The reason a press of a destructive button is rated high, naming it and its window."""
    where = f" in {window!r}" if window else ""
    return f"presses {name!r}{where}, a button that deletes, sends or pays: it cannot be undone"
WHY = {
    "act": "acts on the desktop (what it clicks or moves may be anything on screen)",
    "type": "types on the desktop: the keys go to whatever window has focus",
    "keys": "presses keys on the desktop: they go to whatever window has focus",
    "clipboard": "puts text on the clipboard, for a paste",
}
KEY_TEXT = {"enter": "\n", "return": "\n", "kp_enter": "\n", "linefeed": "\n", "space": " ",
            "tab": "\t", "minus": "-", "slash": "/", "asciitilde": "~", "period": ".",
            "asterisk": "*", "bar": "|", "ampersand": "&", "semicolon": ";", "greater": ">",
            "less": "<", "quotedbl": '"', "apostrophe": "'", "dollar": "$", "underscore": "_",
            "equal": "=", "backslash": "\\", "colon": ":", "exclam": "!", "numbersign": "#",
            "parenleft": "(", "parenright": ")", "plus": "+", "comma": ",", "at": "@",
            "grave": "`", "braceleft": "{", "braceright": "}", "bracketleft": "[",
            "bracketright": "]", "question": "?", "percent": "%", "asciicircum": "^"}
EDITOR_COMMAND = re.compile(r"(?m)^[ \t]*:[^!\n]*!")
"""An editor's command line that runs the rest as a shell command (vim's `:!`, `:r !`)."""
OPENS_OWN = "opens the assistant's own files in a program that keys may then edit"
EDITORS = {"xdg-open", "gio", "gedit", "gnome-text-editor", "kate", "kwrite", "mousepad",
           "xed", "pluma", "leafpad", "featherpad", "geany", "code", "codium", "subl",
           "vim", "vi", "nvim", "nano", "emacs", "micro", "libreoffice", "soffice", "open",
           "sensible-editor", "editor", "gvim"}
PASTE = ({"ctrl", "v"}, {"shift", "insert"}, {"control", "v"}, {"ctrl", "shift", "v"})


def kind(name: str) -> tuple[str, str]:
    """What a call does on the desktop ("" when it is no desktop call), and its short name.

    `computer.keyboard.write`, `assistant.computer.keyboard.write` and the `keyboard`
    package's `keyboard.write` are one call; an unknown `computer.*` call acts.
    """
    short = name
    for prefix in ("assistant.computer.", "computer."):
        if name.startswith(prefix):
            short = name[len(prefix):]
            break
    for what, names in KINDS.items():
        if short in names and ("." in short or short != name):  # type() alone is Python's
            return what, short
    if short.startswith("pynput.keyboard"):
        last = short.rsplit(".", 1)[-1]
        return ("type" if last == "type" else "keys" if last in ("press", "tap") else ""), short
    if short.startswith(("pynput.mouse", "pyautogui.")) or short != name:
        return "act", short
    return "", short


@dataclass
class Typist:
    """What a snippet types, in order: text, single keys, and pastes of what it put on the
    clipboard. The text is what a terminal with focus would run."""

    typed: list[str] = field(default_factory=list)
    clipboard: str = ""

    def text(self, text: str, field_named: bool = False) -> None:
        """Text typed; into a field of its own name, it starts a line of its own."""
        self.typed.append(("\n" if field_named else "") + text)

    def copy(self, text: str) -> None:
        self.clipboard = text

    def keys(self, names: list[str]) -> None:
        """Keys pressed one after the other (a list) or together (a hotkey): a paste
        types the clipboard; Enter, Space and single characters type themselves."""
        if len(names) == 1 and "+" in names[0].strip("+"):
            names = names[0].split("+")  # xdotool's `ctrl+shift+v`
        lowered = {n.lower() for n in names}
        if len(names) > 1 and any(combo <= lowered for combo in PASTE):
            self.typed.append(self.clipboard)
            return
        if len(names) > 1 and lowered & {"ctrl", "control", "alt", "super", "win", "cmd"}:
            return  # a shortcut: it types nothing
        for name in names:
            self.typed.append(self._key(name))

    @staticmethod
    def _key(name: str) -> str:
        if name.lower() in KEY_TEXT:
            return KEY_TEXT[name.lower()]
        if len(name) == 1:
            return name
        # A key name (esc, f5, pagedown) types nothing; anything else is text pressed
        # character by character (`for c in TEXT: press(c)`).
        return "" if name.isalnum() and len(name) <= 12 else name

    def findings(self, scope: Scope, found: list[Finding] | None = None) -> list[Finding]:
        """What the typed text would do in a terminal (or an editor's `:!` command line),
        said as typed; typed after the assistant's own files were opened (`found` says
        so), it changes them."""
        text = unprompted(EDITOR_COMMAND.sub("", "".join(self.typed)))  # as a terminal runs it
        if not text.strip():
            return []
        typed = [Finding(f.family, f.level, f.part, f.why + " (typed as keys)")
                 for f in scope.at("").inner(text, "shell") if f.family != "unparsed"]
        if any(f.why == OPENS_OWN for f in found or ()):
            typed.append(Finding("self-tamper", "high", text.strip(),
                                 "is typed into the assistant's own files, opened just before"))
        return typed


XDOTOOL_READS = {"search", "getactivewindow", "getwindowfocus", "getwindowname", "getwindowpid",
                 "getwindowgeometry", "getmouselocation", "getdisplaygeometry", "selectwindow",
                 "get_desktop", "get_num_desktops", "version", "help"}
XDOTOOL_VALUED = {"--delay", "--window", "--repeat", "--terminator", "--file", "--name",
                  "--class", "--classname", "--pid", "--desktop", "--screen", "--limit",
                  "--repeat-delay"}
DESKTOP_COMMANDS = ("xdotool", "ydotool", "wtype", "xte", "dotool", "xclip", "xsel", "wl-copy")


def shell_command(name: str, args: list[str], piped: str, typist: Typist) -> str:
    """A shell command that drives the desktop: feed the Typist with what it types or
    copies, and say what it does ("act", "type", "keys", "clipboard"; "" for none or a read).
    `piped` is the text it reads on stdin (what `echo ... | xclip` copies)."""
    if name == "xdotool":
        return _xdotool(args, typist)
    if name in ("wtype", "ydotool"):
        words = args[1:] if name == "ydotool" else args
        if name == "ydotool" and args[:1] != ["type"]:
            return "act" if args else ""
        keys = [w for i, w in enumerate(words) if i and words[i - 1] in ("-k", "-P")]
        text = [w for i, w in enumerate(words) if not w.startswith("-")
                and not (i and words[i - 1] in ("-k", "-P", "-p", "-M", "-m", "-d", "-s"))]
        typist.text(" ".join(text))
        if keys:
            typist.keys(keys)
        return "type"
    if name == "xte":
        for command in args:
            verb, _, rest = command.partition(" ")
            if verb == "str":
                typist.text(rest)
            elif verb == "key":
                typist.keys([rest])
        return "type" if args else ""
    if name == "dotool":
        typist.text("\n".join(line.removeprefix("type ") for line in piped.splitlines()))
        return "type"
    copies = (name == "wl-copy" or (name == "xclip" and "-o" not in args and "-out" not in args)
              or (name == "xsel" and any(a in ("-i", "--input", "-a", "--append") for a in args)))
    if copies:
        typist.copy(piped or " ".join(a for a in args if not a.startswith("-")
                                      and name == "wl-copy"))
        return "clipboard"
    return ""


def _xdotool(args: list[str], typist: Typist) -> str:
    """xdotool chains commands: `search --name X windowactivate type 'text' key Return`."""
    verb, did, skip = "", "", False
    for word in args:
        if skip or word in XDOTOOL_VALUED:
            skip = not skip
        elif word.startswith("-"):
            continue
        elif not verb or _verb(word):
            verb = word
            if word not in XDOTOOL_READS:
                what = "type" if word == "type" else "keys" if word.startswith("key") else "act"
                did = min(did or what, what, key=("type", "keys", "act").index)
        elif verb == "type":
            typist.text(word)
        elif verb == "key":
            typist.keys([word])
    return did


def _verb(word: str) -> bool:
    """A word that starts another xdotool command in a chain."""
    return word in XDOTOOL_READS or word in {
        "type", "key", "keydown", "keyup", "click", "mousemove", "mousedown", "mouseup",
        "windowactivate", "windowfocus", "windowraise", "windowmove", "windowsize",
        "windowkill", "windowclose", "windowminimize", "sleep", "exec", "set_desktop"}
