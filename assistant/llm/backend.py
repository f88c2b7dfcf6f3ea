"""Loading litellm: late (it takes seconds to import), offline and quiet."""

from __future__ import annotations

import functools
import logging
import os
from types import ModuleType


@functools.cache
def load_litellm() -> ModuleType:
    """Import and configure litellm once per process.

    Its price list comes from the bundled copy instead of the network; tokenizers
    are never downloaded (token counts fall back to the bundled tiktoken
    encodings); its feedback banners and log lines never reach the user's terminal.
    Its per-chunk logging (a thread-pool task per streamed chunk, feeding callbacks
    and caches the assistant never registers) is off: it costs time on every reply.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    litellm.disable_hf_tokenizer_download = True
    litellm.disable_streaming_logging = True
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return litellm
