"""Whether best-of-n can pay for the embedded model here: what n proposals decoded
together cost against one.

Best-of-n samples a few proposals for one request, previews each, and keeps the one whose
effect the others agree with. On a GPU, n sequences decoded in one batch cost little more
than one. This figure measures it where the assistant runs: the prompt (the loop's system
message and an everyday request) is read once, its KV cache copied to 3 sequences, and
each step decodes one token of each in a single llama_decode, against the same steps for
one sequence. A ratio near 3 means 3 proposals take 3 times as long to write, and a turn
on the embedded model already comes near its time limit: best-of-n is then left out.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.bench.base import Bench, NotMeasurable

NEW_TOKENS = 96
SAMPLES = 3
REQUEST = "move the .log files here into a folder called old"


def best_of_3_decode_ratio(bench: Bench) -> float:
    """Decode time of 3 sequences in one batch over that of 1, the same tokens each."""
    import llama_cpp
    from llama_cpp import _logger

    from assistant.config import load_settings
    from assistant.loop.prompt import system_message
    from assistant.servers import chatml, embedded

    model = embedded.chosen(load_settings())
    if model.path is None:
        raise NotMeasurable(f"the embedded model is not installed ({model.install})")
    _logger.set_verbose(False)  # llama.cpp's loading report is not the figure
    llama_cpp.llama_backend_init()
    params = llama_cpp.llama_model_default_params()
    weights = llama_cpp.llama_model_load_from_file(str(model.path).encode(), params)
    context_params = llama_cpp.llama_context_default_params()
    context_params.n_ctx, context_params.n_batch = 2048, 512
    context_params.n_seq_max, context_params.kv_unified = SAMPLES, True
    context_params.n_threads = context_params.n_threads_batch = embedded.physical_cores()
    context = llama_cpp.llama_init_from_model(weights, context_params)
    try:
        prompt = chatml.render([{"role": "system", "content": system_message("", "")},
                                {"role": "user", "content": REQUEST}])
        tokens = _tokens(weights, prompt)
        ones, threes = [], []
        for _ in range(bench.reps(3, 1)):
            ones.append(_decode(context, tokens, 1))
            threes.append(_decode(context, tokens, SAMPLES))
        return statistics.median(threes) / statistics.median(ones)
    finally:
        llama_cpp.llama_free(context)
        llama_cpp.llama_model_free(weights)


def _tokens(weights: Any, text: str) -> list[int]:
    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(weights)
    raw = text.encode()
    room = len(raw) + 8
    buffer = (llama_cpp.llama_token * room)()
    count = llama_cpp.llama_tokenize(vocab, raw, len(raw), buffer, room, False, True)
    return list(buffer[:count])


def _decode(context: Any, tokens: list[int], n: int) -> float:
    """Seconds for NEW_TOKENS steps of `n` sequences after one shared prompt read. Each
    sequence is fed its own greedy choice: what is timed is the decoding, not sampling."""
    import llama_cpp
    import numpy as np

    memory = llama_cpp.llama_get_memory(context)
    llama_cpp.llama_memory_clear(memory, True)
    vocab_size = llama_cpp.llama_vocab_n_tokens(
        llama_cpp.llama_model_get_vocab(llama_cpp.llama_get_model(context)))
    batch = llama_cpp.llama_batch_init(max(len(tokens), n), 0, n)
    try:
        _fill(batch, [(token, k, 0, k == len(tokens) - 1) for k, token in enumerate(tokens)])
        if llama_cpp.llama_decode(context, batch) != 0:
            raise RuntimeError("the prompt could not be decoded")
        for sequence in range(1, n):
            llama_cpp.llama_memory_seq_cp(memory, 0, sequence, -1, -1)

        def choice(i: int) -> int:
            logits = llama_cpp.llama_get_logits_ith(context, i)
            return int(np.argmax(np.ctypeslib.as_array(logits, shape=(vocab_size,))))

        following = [choice(len(tokens) - 1)] * n
        started = time.perf_counter()
        for step in range(NEW_TOKENS):
            _fill(batch, [(following[s], len(tokens) + step, s, True) for s in range(n)])
            if llama_cpp.llama_decode(context, batch) != 0:
                raise RuntimeError("a step could not be decoded")
            following = [choice(s) for s in range(n)]
        return time.perf_counter() - started
    finally:
        llama_cpp.llama_batch_free(batch)


def _fill(batch: Any, entries: list[tuple[int, int, int, bool]]) -> None:
    """(token, position, sequence, wants logits) for each slot of `batch`."""
    batch.n_tokens = len(entries)
    for slot, (token, position, sequence, logits) in enumerate(entries):
        batch.token[slot], batch.pos[slot] = token, position
        batch.n_seq_id[slot], batch.seq_id[slot][0] = 1, sequence
        batch.logits[slot] = logits
