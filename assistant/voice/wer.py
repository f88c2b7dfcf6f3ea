"""Word error rate: how the accuracy tests and the benchmark judge a transcript."""

from __future__ import annotations

import re


def words(text: str) -> list[str]:
    """Lower-case words without punctuation, so "Save." and "save" count as equal."""
    return re.findall(r"[a-z0-9']+", text.lower().replace("-", " "))


def word_error_rate(reference: str, hypothesis: str) -> float:
    """(substitutions + deletions + insertions) / reference words, by edit distance."""
    ref, hyp = words(reference), words(hypothesis)
    if not ref:
        return float(bool(hyp))
    previous = list(range(len(hyp) + 1))
    for i, ref_word in enumerate(ref, 1):
        current = [i]
        for j, hyp_word in enumerate(hyp, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ref_word != hyp_word)))
        previous = current
    return previous[-1] / len(ref)
