"""The daemon's LLM client lives in a process of its own: the daemon never loads litellm,
the child ends after keep_alive seconds without a request (reaped, no zombie), and a
request after that starts it again and is answered."""

from __future__ import annotations

import re
from pathlib import Path

from tests.integration.daemon.conftest import ready_daemon
from tests.integration.daemon.test_daemon import type_request
from tests.support.llm_server import LLMServer, text

STARTED = re.compile(r"assistant daemon: LLM client process started \(pid (\d+)\)")
# Native parts of litellm and the OpenAI client: a process that imported them maps these.
LLM_LIBRARIES = ("/tiktoken/", "/jiter/", "/_pydantic_core")


def mapped(pid: int) -> set[str]:
    maps = Path(f"/proc/{pid}/maps").read_text()
    return {library for library in LLM_LIBRARIES if library in maps}


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_the_llm_client_ends_when_idle_and_starts_again(
        display: str, pulse, tmp_path: Path, llm: LLMServer) -> None:
    with ready_daemon(tmp_path, llm, config="keep_alive = 4\n") as daemon:
        pid = int(STARTED.match(daemon.wait_for(STARTED.match, timeout=10))[1])  # type: ignore[index]
        assert parent(pid) == daemon.process.pid
        daemon.wait_for("LLM client process stopped after", timeout=120)
        assert not Path(f"/proc/{pid}").exists(), "the idle child was not reaped"
        assert mapped(daemon.process.pid) == set()

        llm.add(text("Hello again."))
        mark = daemon.mark()
        type_request(daemon, "say hello")
        again = int(STARTED.match(daemon.wait_for(STARTED.match, mark))[1])  # type: ignore[index]
        assert again != pid
        daemon.wait_for("assistant daemon: answer Hello again.", mark, timeout=120)
        assert mapped(again), "the child maps none of the libraries looked for"
        assert mapped(daemon.process.pid) == set(), "the daemon loaded the LLM client itself"
        assert llm.chat_requests[-1].body["messages"][-1]["content"].startswith("say hello")
