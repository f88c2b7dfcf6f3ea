"""Every figure the bench measures, in the order its table shows them: the one list, so a
figure is measured because it is named here, not because some module was imported.

Adding a figure: one function `name(bench: Bench) -> float` in the module of its part
(the function's name is the figure's name), listed here; `limit_s` when it runs whole
tasks on a local model and may take longer than cli.LIMIT_S.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.bench import a11y, areas, bestof, core, daemon, stt, tasks, tools, web, whatif
from benchmarks.bench.base import Measure


@dataclass(frozen=True)
class Figure:
    measure: Measure
    limit_s: int = 0  # seconds, when longer than cli.LIMIT_S

    @property
    def name(self) -> str:
        return self.measure.__name__


FIGURES: tuple[Figure, ...] = (
    Figure(core.help_s),
    Figure(core.run_python_ms),
    Figure(core.run_shell_ms),
    Figure(core.run_js_ms),
    Figure(core.turn_overhead_ms),
    Figure(whatif.preview_overhead_ms),
    Figure(whatif.undo_ms),
    Figure(areas.risk_check_ms),
    Figure(areas.risk_recall),
    Figure(areas.risk_false_alarm_pct),
    Figure(stt.stt_release_to_text_ms_2s),
    Figure(stt.stt_release_to_text_ms_5s),
    Figure(stt.stt_release_to_text_ms_10s),
    Figure(stt.stt_rtf),
    Figure(stt.stt_wer_test),
    Figure(stt.stt_wer_test_vs_naive),
    Figure(stt.stt_wer_tune),
    Figure(stt.stt_wer_biased),
    Figure(stt.stt_hint_cost_pct),
    Figure(stt.stt_silence_words),
    Figure(areas.tts_first_audio_ms),
    Figure(areas.tts_first_audio_ms_espeak_ng),
    Figure(areas.tts_first_audio_ms_pyttsx3),
    Figure(areas.screenshot_ms),
    Figure(areas.click_text_sparse_ms),
    Figure(areas.click_text_dense_ms),
    Figure(a11y.text_map_ms),
    Figure(a11y.screen_text_tokens),
    Figure(a11y.a11y_tree_ms),
    Figure(a11y.click_a11y_ms),
    Figure(daemon.voice_turn_overhead_ms),
    Figure(daemon.voice_first_feedback_ms),
    Figure(daemon.spoken_proposal_s),
    Figure(daemon.voice_effect_spoken_s),
    Figure(tools.mcp_call_overhead_ms),
    Figure(daemon.daemon_turn_growth_mb),
    Figure(daemon.daemon_idle_rss_mb),
    Figure(daemon.daemon_idle_cpu_pct),
    Figure(web.web_event_latency_ms),
    Figure(web.serve_idle_rss_mb),
    Figure(areas.embedded_llm_start_s),
    Figure(areas.embedded_llm_tokens_per_s),
    Figure(bestof.best_of_3_decode_ratio, limit_s=900),
    Figure(areas.embedded_first_token_s),
    Figure(areas.embedded_first_token_cold_s),
    Figure(core.cli_first_token_cold_s, limit_s=core.CLI_LIMIT_S),
    Figure(core.cli_first_token_warm_s, limit_s=core.CLI_LIMIT_S),
    Figure(core.embedded_server_rss_mb, limit_s=core.CLI_LIMIT_S),
    Figure(tasks.embedded_task_median_s, limit_s=900),
    Figure(tasks.voice_first_audio_embedded_s, limit_s=900),
    Figure(tasks.voice_first_word_embedded_s, limit_s=900),
    Figure(tasks.voice_popup_embedded_s, limit_s=900),
)
BY_NAME = {figure.name: figure for figure in FIGURES}
FIGURE_NAMES = [figure.name for figure in FIGURES]

# What --quick measures: the figures that take seconds, and one voice turn through the
# daemon to its previewed proposal (about 30 s), so CI sees when the daemon's figures stop
# measuring. The others (real-time speech, the embedded model, the browser, OCR, the
# accessibility tree, an MCP server) take tens of seconds each to start or run on a loaded
# machine and are left to the full run. A figure added to FIGURES is full-run only until
# listed.
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
FULL_RUN = "measured by the full run only (python -m benchmarks.bench without --quick)"
