"""The no-network guarantee: the guard itself, litellm under it, and the offline tests
run again inside a network namespace that has only loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.request

import pytest

from tests.integration.conftest import OFFLINE_TESTS, ROOT
from tests.support import netguard
from tests.support.llm_server import LLMServer, text
from tests.support.models import INSTALLED
from tests.support.require import require


def test_the_guard_refuses_and_records_outside_connections() -> None:
    with netguard.guard() as seen:
        for attempt in (
            lambda: socket.create_connection(("192.0.2.1", 80), timeout=1),
            lambda: socket.getaddrinfo("example.com", 443),
            lambda: urllib.request.urlopen("http://198.51.100.7/", timeout=1),
        ):
            with pytest.raises(OSError, match="no-network guard"):
                attempt()
    assert len(seen) == 3 and "192.0.2.1" in seen[0] and "example.com" in seen[1]


def test_the_guard_lets_loopback_through() -> None:
    with LLMServer([text("local")]) as server, netguard.guard() as seen:
        with urllib.request.urlopen(f"{server.url}/api/tags", timeout=5) as response:
            assert response.status == 200
        socket.getaddrinfo("localhost", 80)
    assert seen == []


def test_litellm_makes_no_outside_call_in_our_configuration() -> None:
    """A fresh process: import, configure and use litellm under the guard from the start."""
    with LLMServer([text("Fine.")]) as server:
        code = (
            "from tests.support import netguard\n"
            "with netguard.guard() as seen:\n"
            "    from assistant.config import Settings\n"
            "    from assistant.llm import LLM\n"
            f"    llm = LLM(Settings(model='ollama_chat/llama3.2', api_base={server.url!r}))\n"
            "    reply = list(llm.stream([{'role': 'user', 'content': 'hi'}]))[-1]\n"
            "print(reply.text, seen)\n"
        )
        env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Fine. []"


@pytest.mark.slow
def test_offline_tests_pass_in_a_namespace_without_network() -> None:
    problem = netguard.namespace_problem()
    require(not problem, f"no network namespace here: {problem}")
    probe = netguard.in_namespace(
        [sys.executable, "-c", "from tests.support import netguard as n; "
         "raise SystemExit(0 if n.namespace_is_isolated() else 1)"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=60,
    )
    assert probe.returncode == 0, f"the namespace still reaches out: {probe.stderr}"
    # This test's own data folder holds no weights: the inner run looks where setup put them.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ASSISTANT_DATA_DIR": str(INSTALLED.parent)}
    result = netguard.in_namespace(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *OFFLINE_TESTS],
        cwd=ROOT, env=env, capture_output=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout
