"""The litellm adapter: streaming replies, code proposals (tool calls or fenced blocks),
context-window fitting and Ollama support, behind one small interface."""

from assistant.llm.client import LLM
from assistant.llm.reply import CodeCall, LLMError, Reply

__all__ = ["LLM", "CodeCall", "LLMError", "Reply"]
