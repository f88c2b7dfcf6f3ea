"""The checks wing: what the loop holds a model's replies, calls and answers to, apart
from the adapter (assistant.llm) and from where the verdicts are applied (a rule asked
and fired: assistant/actions/apply.py; carried out: the pipeline and loop/history.py);
the history they read is in the words of assistant.messages."""
