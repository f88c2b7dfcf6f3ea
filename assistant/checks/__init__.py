"""The checks wing: what the loop holds a model's replies, calls and answers to, apart
from the adapter (assistant.llm) and from the loop that applies the verdicts; the history
they read is in the words of assistant.messages."""
