"""The table every benchmark figure registers in, and the helpers figures share."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
NOT_BUILT = "needs the voice/desktop/daemon parts, not built yet"

FIGURE_NAMES = [
    "help_s",
    "run_python_ms",
    "run_shell_ms",
    "run_js_ms",
    "turn_overhead_ms",
    "preview_overhead_ms",
    "undo_ms",
    "risk_check_ms",
    "risk_recall",
    "risk_false_alarm_pct",
    "stt_release_to_text_ms_2s",
    "stt_release_to_text_ms_5s",
    "stt_release_to_text_ms_10s",
    "stt_rtf",
    "stt_wer_test",
    "stt_wer_test_vs_naive",
    "stt_wer_tune",
    "stt_wer_biased",
    "stt_silence_words",
    "tts_first_audio_ms",
    "tts_first_audio_ms_espeak_ng",
    "tts_first_audio_ms_pyttsx3",
    "screenshot_ms",
    "click_text_sparse_ms",
    "click_text_dense_ms",
    "text_map_ms",
    "screen_text_tokens",
    "a11y_tree_ms",
    "click_a11y_ms",
    "voice_turn_overhead_ms",
    "voice_first_feedback_ms",
    "spoken_proposal_s",
    "voice_effect_spoken_s",
    "mcp_call_overhead_ms",
    "daemon_turn_growth_mb",
    "daemon_idle_rss_mb",
    "daemon_idle_cpu_pct",
    "web_event_latency_ms",
    "serve_idle_rss_mb",
    "embedded_llm_start_s",
    "embedded_llm_tokens_per_s",
    "best_of_3_decode_ratio",
    "embedded_first_token_s",
    "embedded_first_token_cold_s",
    "cli_first_token_cold_s",
    "cli_first_token_warm_s",
    "embedded_server_rss_mb",
    "embedded_task_median_s",
    "voice_first_audio_embedded_s",
    "voice_first_word_embedded_s",
    "voice_popup_embedded_s",
]


# What --quick measures: the figures that take seconds, and one voice turn through the
# daemon to its previewed proposal (about 30 s), so CI sees when the daemon's figures stop
# measuring. The others (real-time speech, the embedded model, the browser, OCR, the
# accessibility tree, an MCP server) take tens of seconds each to start or run on a loaded
# machine and are left to the full run. A figure added to FIGURE_NAMES is full-run only
# until listed.
QUICK = {
    "voice_turn_overhead_ms",
    "help_s",
    "run_python_ms",
    "run_shell_ms",
    "run_js_ms",
    "turn_overhead_ms",
    "risk_check_ms",
    "risk_recall",
    "risk_false_alarm_pct",
    "screenshot_ms",
}
FULL_RUN = "measured by the full run only (scripts/bench.py without --quick)"


class NotMeasurable(Exception):
    """The figure has no meaning here yet (a part or a tool is missing); not a failure."""


class Bench:
    """Settings of one bench run and the resources figures share (one Runtimes, as the core)."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self._runtimes: Any = None

    def reps(self, full: int, quick: int) -> int:
        return quick if self.quick else full

    def runtimes(self) -> Any:
        if self._runtimes is None:
            from assistant.runtime import Runtimes

            self._runtimes = Runtimes()
        return self._runtimes

    def close(self) -> None:
        if self._runtimes is not None and hasattr(self._runtimes, "close"):
            self._runtimes.close()


Measure = Callable[[Bench], float]
FIGURES: dict[str, Measure] = {}
LIMITS: dict[str, int] = {}  # seconds, for figures that take longer than bench.LIMIT_S


def figure(name: str, limit_s: int = 0) -> Callable[[Measure], Measure]:
    """Register the function that measures `name` (a name listed in FIGURE_NAMES); one
    that runs whole tasks on a local model says how long it may take."""
    assert name in FIGURE_NAMES, name

    def register(measure: Measure) -> Measure:
        FIGURES[name] = measure
        if limit_s:
            LIMITS[name] = limit_s
        return measure

    return register


def median_time(action: Callable[[], object], n: int, warmup: int = 1) -> float:
    """Median wall time of `action` in seconds over n runs, after `warmup` untimed runs."""
    for _ in range(warmup):
        action()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
