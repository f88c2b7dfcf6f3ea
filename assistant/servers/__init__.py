"""The local model servers' lifecycle: which local model to use (local.py), Ollama's
server asked what it has (ollama.py), the embedded llama.cpp server of one program
(embedded.py) or shared by the user's programs (shared.py; keepalive.py runs inside it),
its chat template (chatml.py), and the Servers one owner keeps (started.py). It knows
nothing of litellm: the adapter (assistant.llm) talks to what these start."""
