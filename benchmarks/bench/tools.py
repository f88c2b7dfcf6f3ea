"""The tool figure: an MCP tool call through the approval gate, over the server's own time.

A real server (tests/support/mcp_server.py, the SDK's server API) over stdio answers an
echo. Through the gate, a call is rated, approved (auto mode, read-only), journaled like
a turn's steps, sent through the toolbox and its answer marked as untrusted; the same
call made with the SDK's client alone, on a connection of its own, is the server's time.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench.base import Bench, median_time

ARGUMENTS = '{"text": "hello"}'


def mcp_call_overhead_ms(bench: Bench) -> float:
    """Median gate-path time of one call minus the median direct SDK call, in ms."""
    from assistant.events import RunEnd
    from assistant.journal import Journal
    from assistant.safety.policy import Policy
    from assistant.tool_settings import parse_servers
    from assistant.tools.toolbox import Toolbox
    from tests.support.mcp_server import stdio_config

    runs = bench.reps(40, 8)
    folder = Path(tempfile.mkdtemp(prefix="assistant-bench-mcp-"))
    server = stdio_config(folder)
    toolbox = Toolbox(parse_servers({"bench": server}, "bench"))
    journal = Journal.in_dir(folder)
    try:
        problems = toolbox.start()
        if problems:
            raise RuntimeError(problems[0])
        policy = Policy(None, mode="auto", tools=toolbox)
        conversation = journal.start_conversation("bench")

        def through_gate() -> None:
            proposal = policy.proposal("call_bench", "bench.echo", ARGUMENTS)
            approval = policy.decide(proposal)
            journal.record(conversation, 1, proposal)
            journal.record(conversation, 1, approval)
            if not approval.approved:
                raise RuntimeError(f"the read-only call was not auto-approved: {approval}")
            ends = [e for e in toolbox.call("bench.echo", approval.code,
                                            proposal_id=proposal.id) if isinstance(e, RunEnd)]
            if ends[-1].exit_status != 0 or "hello" not in ends[-1].output:
                raise RuntimeError(f"the call failed: {ends[-1]}")
            journal.record(conversation, 1, ends[-1])

        gate = median_time(through_gate, runs, warmup=3)
    finally:
        toolbox.close()
        journal.close()
    direct = asyncio.run(_direct(server, runs))
    return 1000 * (gate - direct)


async def _direct(server: dict[str, Any], runs: int) -> float:
    """Median seconds of the same call with the SDK's client alone."""
    from mcp import Client, StdioServerParameters

    parameters = StdioServerParameters(command=str(server["command"]),
                                       args=list(server["args"]),
                                       env=dict(server["env"]))
    async with Client(parameters) as client:
        times = []
        for number in range(runs + 3):
            started = time.perf_counter()
            await client.call_tool("echo", {"text": "hello"})
            if number >= 3:
                times.append(time.perf_counter() - started)
    return statistics.median(times)


if __name__ == "__main__":
    sys.exit("run through python -m benchmarks.bench --only mcp_call_overhead_ms")
