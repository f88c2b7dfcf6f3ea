"""One action, whichever way it came in: the parts built from Settings once (parts.py),
and the stages every proposal goes through (pipeline.py), each ending in a typed outcome
(outcomes.py). The conversation, `assistant mcp`, `assistant preview`, the web page and
the Python API all use these; none assembles its own."""
