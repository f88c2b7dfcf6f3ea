"""`assistant serve`: the web page and its API on this machine, locked with a token.

It prints one line, `assistant serve: open http://127.0.0.1:PORT/?token=TOKEN`, and serves
until SIGINT or SIGTERM. The token lives 0600 in the data folder and is new at every start,
unless kept (--keep-token, or serve_keep_token = true). With no model configured, the page
runs on the same default as the chat: a local model from Ollama, else the embedded one.
Another address than loopback needs --tls-cert and --tls-key.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import TYPE_CHECKING

from assistant import warming
from assistant.commands import with_model
from assistant.config import ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from assistant.servers.started import Servers

PREFIX = "assistant serve:"


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog="assistant serve", description=__doc__.splitlines()[0])
    parse.add_argument("--port", type=int, help="port to listen on (default: serve_port, 8421; "
                                                "0 picks a free one)")
    parse.add_argument("--host", default="127.0.0.1",
                       help="address to bind (default 127.0.0.1; others need TLS)")
    parse.add_argument("--tls-cert", default="", help="certificate file (PEM) for HTTPS")
    parse.add_argument("--tls-key", default="", help="its private key file (PEM)")
    parse.add_argument("--new-token", action="store_true",
                       help="replace the token even when it is kept (with --url: now): every "
                            "page and client holding the old one is locked out")
    parse.add_argument("--keep-token", action="store_true",
                       help="keep the token of the last start (as serve_keep_token = true); "
                            "by default each start makes a new one")
    parse.add_argument("--url", action="store_true",
                       help="only print the address with the token (e.g. for the daemon's "
                            "page, serve = true), then exit")
    parse.add_argument("-m", "--model", help="LLM as litellm names it")
    parse.add_argument("--api-base", help="URL of an OpenAI-compatible or Ollama server")
    parse.add_argument("--api-key", help="API key for the model's provider")
    parse.add_argument("--code-style", choices=("auto", "tools", "fenced"),
                       help="how the LLM proposes code: tool calls or fenced blocks")
    parse.add_argument("--profile", help="a TOML profile from the config folder's profiles/")
    parse.add_argument("--local", dest="offline", action="store_const", const=True,
                       help="only local models (Ollama, else the embedded model)")
    return parse


def tell(line: str) -> None:
    print(f"{PREFIX} {line}", file=sys.stderr, flush=True)


def fail(message: str, status: int = 2) -> int:
    tell(message)
    return status


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    from assistant.web.guard import is_loopback

    if not is_loopback(args.host) and not (args.tls_cert and args.tls_key):
        return fail(f"{args.host} is not a loopback address: pass --tls-cert and --tls-key "
                    "to serve it over HTTPS, or leave --host out")
    if args.host.strip("[]") in ("0.0.0.0", "::"):
        return fail(f"--host {args.host} names no address: give this machine's address on the "
                    "network, the one other name (besides loopback) the page answers to")
    flags = {k: v for k, v in vars(args).items()
             if k in ("model", "api_base", "api_key", "code_style", "profile", "offline")}
    try:
        settings = load_settings(flags)
    except ConfigError as exc:
        return fail(str(exc))
    if args.url:
        from assistant.web.token import TokenFile

        tokens = TokenFile(settings.data_path)
        token = tokens.rotate() if args.new_token else tokens.get()
        port = settings.serve_port if args.port is None else args.port
        print(f"{PREFIX} open {address(args, port)}/?token={token}")
        return 0

    def start(ready: Settings, servers: Servers) -> int:
        """The page on the model `with_model` readied: the one set, else Ollama's best, else
        the embedded one, as for the chat."""
        if not ready.model:
            from assistant.cli import no_model_message

            return fail(no_model_message(ready))
        return serve(ready, args, servers)

    return with_model(settings, tell, start)


def address(args: argparse.Namespace, port: int) -> str:
    scheme = "https" if args.tls_cert else "http"
    host = f"[{args.host}]" if ":" in args.host else args.host
    return f"{scheme}://{host}:{port}"


def serve(settings: Settings, args: argparse.Namespace, servers: Servers | None = None) -> int:
    from assistant.journal import Journal, JournalError
    from assistant.llm.rate import shared
    from assistant.web.app import make_app
    from assistant.web.conversations import Conversations
    from assistant.web.live import Hub
    from assistant.web.server import Server, bind
    from assistant.web.token import TokenFile

    tokens = TokenFile(settings.data_path)
    port = settings.serve_port if args.port is None else args.port
    try:
        journal = Journal.in_dir(settings.data_path)
    except JournalError as exc:
        return fail(str(exc), 1)
    try:
        sock = bind(args.host, port)
    except OSError as exc:
        journal.close()
        return fail(f"cannot listen on {args.host}:{port} ({exc.strerror}): pass --port N, "
                    "or --port 0 for any free port")
    keep = (args.keep_token or settings.serve_keep_token) and not args.new_token
    token = tokens.at_start(keep=keep)  # once bound: a failed start locks no one out
    hub = Hub()
    turns = Conversations(settings, hub, servers=servers)
    tls = bool(args.tls_cert)
    app = make_app(hub, turns, journal, token=tokens, hosts=(args.host,), tls=tls,
                   calls=shared(settings.data_path, settings.serve_llm_calls_per_minute))
    server = Server(app, sock, tls_cert=args.tls_cert, tls_key=args.tls_key)
    def stop(*_: object) -> None:
        """From a signal: the hub's lock may be held by this very thread, so the turns are
        stopped from another one."""
        threading.Thread(target=turns.stop, name="stop", daemon=True).start()
        server.stop()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)
    print(f"{PREFIX} open {address(args, server.port)}/?token={token}", flush=True)
    warming.start(turns.warm_up)
    try:
        server.run()
    finally:
        turns.close()
        journal.close()
    return 0
