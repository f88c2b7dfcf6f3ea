"""`assistant mcp`: serve this assistant's `execute` and `computer` to MCP clients (stdio).

Stdin and stdout carry the protocol, so the person approves elsewhere: in the popup on a
desktop, else on a terminal (`--tty`, default the controlling one). The server runs on a
thread of its own; this thread belongs to the approver (Tk, or the terminal's prompt,
which needs the main thread for Ctrl-C). Without a person to ask, every call is declined.
Auto approval is never taken from the config: the client, not the person, writes the
calls, so only an explicit `--approval auto` lets low-risk ones run unasked.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from assistant.choices import ApprovalMode, choices
from assistant.config import load_settings

APPROVERS = ("auto", "popup", "terminal")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="assistant mcp",
        description="An MCP server on stdin/stdout: execute, computer_view, computer_click, "
                    "computer_type; every call needs your approval here and is journaled.")
    parser.add_argument("--approver", choices=APPROVERS, default="auto",
                        help="where you approve calls (auto: the popup on a desktop, else the "
                             "terminal)")
    parser.add_argument("--tty", default="/dev/tty",
                        help="the terminal to ask on (default: the controlling terminal)")
    parser.add_argument("--approval", choices=choices(ApprovalMode),
                        help="ask (default, whatever the config says), auto (low risk runs "
                             "unasked) or never")
    parser.add_argument("--profile", help="a TOML profile from the config folder's profiles/")
    args = parser.parse_args(argv)
    settings = load_settings({"profile": args.profile})
    settings = settings.replace(approval=args.approval or _asking(settings.approval))

    from assistant.tools.gate import Gate
    from assistant.tools.mcp_server import build

    use_popup = args.approver == "popup" or (args.approver == "auto" and _desktop())
    if use_popup:
        from assistant.ui.popup import Popup

        popup = Popup()
        gate = Gate(settings, lambda proposal: popup.approve(proposal), popup.show)
        return _serve(build(gate), gate, popup.run, popup.stop)
    terminal = _terminal(args.tty)
    if terminal is None:
        print(f"assistant mcp: no display and no terminal at {args.tty}: every call will be "
              "declined (run it on a desktop, or pass --tty)", file=sys.stderr)
        gate = Gate(settings, None)
        return _serve(build(gate), gate, None, None)
    broker = _MainThread()
    gate = Gate(settings, lambda proposal: broker.call(terminal.approve, proposal),
                terminal.show)
    return _serve(build(gate), gate, broker.serve, broker.stop)


def _asking(configured: ApprovalMode) -> ApprovalMode:
    """The mode without the flag: a client's calls always reach a person, so the config's
    auto (meant for the person's own requests) becomes ask; its never stays never."""
    return "never" if configured == "never" else "ask"


def _serve(server: Any, gate: Any, hold: Callable[[], None] | None,
           release: Callable[[], None] | None) -> int:
    """The server on its own thread until the client goes; `hold` keeps this thread."""
    import anyio

    def protocol() -> None:
        try:
            anyio.run(server.run_stdio_async)
        finally:
            if release is not None:
                release()

    thread = threading.Thread(target=protocol, name="mcp-server", daemon=True)
    thread.start()
    try:
        if hold is not None:
            hold()
        thread.join()
    finally:
        gate.close()
    return 0


def _desktop() -> bool:
    if not os.environ.get("DISPLAY"):
        return False
    try:
        import tkinter  # noqa: F401
    except ImportError:
        return False
    return True


def _terminal(path: str) -> Any:
    """The terminal front end on `path`, or None when it cannot be opened."""
    from rich.console import Console

    from assistant.ui.terminal import Terminal

    try:
        keyboard = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 - kept open
        screen = open(path, "w", encoding="utf-8")  # noqa: SIM115 - for the server's life
    except OSError:
        return None
    return Terminal(console=Console(file=screen, highlight=False), keyboard=keyboard)


class _MainThread:
    """Runs approvals on the main thread, where the terminal can take Ctrl-C."""

    def __init__(self) -> None:
        self._work: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]] | None]
        self._work = queue.Queue()

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        done: Future[Any] = Future()
        self._work.put((function, args, done))
        return done.result()

    def serve(self) -> None:
        while (item := self._work.get()) is not None:
            function, args, done = item
            try:
                done.set_result(function(*args))
            except BaseException as exc:
                done.set_exception(exc)

    def stop(self) -> None:
        self._work.put(None)
