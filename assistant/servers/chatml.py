"""The embedded server's chat template: a fixed ChatML of our own, never the template
stored in the GGUF (a Jinja program that comes with third-party weights).

llama-cpp-python's built-in "chatml" keeps only the first system message and drops
later ones and any message whose content is a list; this one keeps every message in
place. `python -m assistant.servers.chatml ARGS` is `python -m llama_cpp.server ARGS` with
this template registered as `--chat_format assistant-chatml`.
"""

from __future__ import annotations

import sys
from typing import Any

FORMAT = "assistant-chatml"
START, END = "<|im_start|>", "<|im_end|>"
STOP = [END, "<|endoftext|>"]


def text_of(content: Any) -> str:
    """A message's text: list contents keep their text parts (the embedded model
    reads no images)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content
                         if isinstance(part, dict) and part.get("type") == "text")
    return ""


def turn(message: dict[str, Any]) -> str:
    """One message as the prompt holds it."""
    role = message.get("role", "user")
    if role not in ("system", "user", "assistant"):
        role = "user"  # a tool result, or an unknown role, reads as what came back
    return f"{START}{role}\n{text_of(message.get('content'))}{END}\n"


def render(messages: list[dict[str, Any]]) -> str:
    """The prompt for `messages`, ending where the assistant's reply begins."""
    return "".join(turn(message) for message in messages) + f"{START}assistant\n"


def _format(messages: list[dict[str, Any]], **_: Any) -> Any:
    from llama_cpp.llama_chat_format import ChatFormatterResponse

    return ChatFormatterResponse(prompt=render(messages), stop=STOP)


def register() -> None:
    """Make `--chat_format assistant-chatml` known to llama-cpp-python in this process."""
    from llama_cpp import llama_chat_format

    llama_chat_format.register_chat_format(FORMAT)(_format)


def main() -> None:
    from llama_cpp.server.__main__ import main as serve

    register()
    sys.argv[0] = "llama_cpp.server"
    serve()  # type: ignore[no-untyped-call]  # llama_cpp.server's entry point is unannotated


if __name__ == "__main__":
    main()
