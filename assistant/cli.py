"""`assistant`: the terminal chat and one-shot requests; subcommands live in commands/.

Imports stay light here so `assistant --help` answers at once; litellm, rich and the
rest load only when a command needs them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from assistant import commands, warming
from assistant.choices import ApprovalMode, CodeStyle, choices
from assistant.config import AUTO_RUN, ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from assistant.servers.started import Servers

EPILOG = """usage:
  assistant                      interactive chat
  assistant "do something"       one turn, then exit (stdin can be piped in too)

commands:
{commands}

Settings: defaults < config.toml < profile < ASSISTANT_* variables < these options.
Profiles are TOML files in the config folder's profiles/."""


def chat_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="assistant",
        description="Ask for something; the LLM proposes code, you approve, it runs here.",
        epilog=EPILOG.format(commands=commands.summary()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("message", nargs="*", help="a request to run as one turn, then exit")
    parser.add_argument("-m", "--model",
                        help="LLM as litellm names it: gpt-4o-mini, ollama_chat/qwen2.5-coder, ...")
    parser.add_argument("--api-base", help="URL of an OpenAI-compatible or Ollama server")
    parser.add_argument("--api-key", help="API key for the model's provider")
    parser.add_argument("-y", "--yes", dest=AUTO_RUN, action="store_const", const=True,
                        help="approval mode auto: run low-risk proposals without asking "
                             "(the safety policy still applies; a mode of never stays never)")
    parser.add_argument("--approval", choices=choices(ApprovalMode),
                        help="ask before every run (default); auto: run low-risk code unasked; "
                             "never: propose only")
    parser.add_argument("--sandbox", action="store_const", const="on",
                        help="run code in a bubblewrap sandbox: system and home read-only, "
                             "only sandbox_writable folders (default: here) writable")
    parser.add_argument("--profile", help="a TOML profile from the config folder's profiles/")
    parser.add_argument("--system-message", help="replace the built-in instructions")
    parser.add_argument("--max-output", type=int, help="characters of run output shown to the LLM")
    parser.add_argument("--timeout", type=float, help="seconds a run may take (default 120)")
    parser.add_argument("--code-style", choices=choices(CodeStyle),
                        help="how the LLM proposes code: tool calls or fenced blocks")
    parser.add_argument("--no-journal", dest="journal", action="store_const", const=False,
                        help="do not record this conversation")
    parser.add_argument("--resume", nargs="?", const="", metavar="ID",
                        help="continue a conversation (the latest without ID)")
    parser.add_argument("--local", dest="offline", action="store_const", const=True,
                        help="only local models: the best one installed in Ollama, "
                             "else the embedded model")
    return parser


def fail(message: str, status: int = 2) -> int:
    print(f"assistant: {message}", file=sys.stderr)
    return status


def no_model_message(settings: Any) -> str:
    """What to do when no model is set and none was found (the embedded one included)."""
    from assistant.servers import embedded

    lacking = embedded.missing(settings) if settings.embedded else []
    default = f"; or install the embedded model ({'; '.join(lacking)})" if lacking else ""
    return (
        "no model chosen: pass --model NAME (e.g. --model gpt-4o-mini with OPENAI_API_KEY set, "
        "or --model ollama_chat/llama3.1 with Ollama running), or set model = \"NAME\" in "
        f"{settings.config_path / 'config.toml'}{default}"
    )


def read_message(args: argparse.Namespace) -> str:
    """The request from the arguments and/or piped stdin (both are joined)."""
    text = " ".join(args.message)
    if not sys.stdin.isatty():
        piped = sys.stdin.read()
        text = f"{text}\n\n{piped}" if text and piped.strip() else text or piped
    return text.strip()


def looks_like_id(value: str) -> bool:
    """Conversation ids start with a date (20261122-...); anything else after --resume is text."""
    return re.fullmatch(r"\d{8}(-\d{0,6}(-[0-9a-f]{0,6})?)?", value) is not None


def run_chat(argv: list[str]) -> int:
    args = chat_parser().parse_args(argv)
    if args.resume and not looks_like_id(args.resume):
        args.message.insert(0, args.resume)
        args.resume = ""
    flags = {k: v for k, v in vars(args).items() if k not in ("message", "resume")}
    settings = load_settings(flags)
    if not settings.model and not settings.offline and args.resume is not None:
        return chat(args, settings)  # the journal knows the conversation's model

    def tell(line: str) -> None:
        print(f"assistant: {line}", file=sys.stderr)

    return commands.with_model(settings, tell,
                               lambda ready, servers: chat(args, ready, servers))


def chat(args: argparse.Namespace, settings: Settings, servers: Servers | None = None) -> int:
    """The chat itself, once the model is known (at a server of `servers`, perhaps)."""
    if not settings.model and args.resume is None:
        return fail(no_model_message(settings))
    message = read_message(args)
    interactive = not message

    from assistant.api import Assistant
    from assistant.journal import JournalError
    from assistant.ui.terminal import Terminal, open_keyboard

    terminal = Terminal(keyboard=open_keyboard())
    try:
        if args.resume is not None:
            assistant = Assistant.resume(args.resume or None, settings=settings,
                                         approver=terminal.approve, servers=servers)
            terminal.console.print(
                f"resumed {assistant.conversation_id} ({len(assistant.messages)} messages)",
                style="dim", highlight=False,
            )
        else:
            assistant = Assistant(settings=settings, approver=terminal.approve,
                                  servers=servers)
    except JournalError as exc:
        return fail(str(exc), 1)
    if not assistant.settings.model:
        return fail(no_model_message(settings))
    with assistant:
        sandbox = assistant.runtimes.sandbox
        if sandbox is not None and sandbox.problem():
            return fail(sandbox.problem())
        for notice in assistant.notices:
            terminal.console.print(notice, style="dim", highlight=False)
        if interactive:
            warming.start(assistant.warm_up)
            terminal.loop(assistant)
            return 0
        end = terminal.run_turn(assistant, message)
    if end is None or end.reason == "error":
        return 1
    return 130 if end.reason == "interrupted" else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        if argv and commands.exists(argv[0]):
            return commands.run(argv[0], argv[1:])
        return run_chat(argv)
    except ConfigError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
