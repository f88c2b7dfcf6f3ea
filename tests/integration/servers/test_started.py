"""The embedded servers belong to whoever started them (servers/started.py): a private
one and the shared one are served alike, only by their owner's Servers, and the owner's
close stops a private one and leaves the shared one to its keep-alive."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.llm import LLM
from assistant.llm.backend import InProcess
from assistant.llm.direct import Direct
from assistant.servers import embedded, shared
from assistant.servers.reach import accepts_connections
from assistant.servers.started import Servers
from tests.support.models import require_embedded

pytestmark = pytest.mark.slow


def server_environment(address: str) -> dict[str, str]:
    """The environment of the server process that serves `address` (its command line
    names the port)."""
    port = address.rsplit(":", 1)[1]
    for process in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            argv = (process / "cmdline").read_bytes().split(b"\0")
            if b"--port" in argv and argv[argv.index(b"--port") + 1] == port.encode():
                pairs = (process / "environ").read_bytes().split(b"\0")
                return dict(pair.decode().split("=", 1) for pair in pairs if b"=" in pair)
    raise AssertionError(f"no process serves {address}")


@pytest.mark.parametrize("keep_alive", [0, 120], ids=["private", "shared"])
def test_a_server_is_served_by_its_owner_alone_and_closing_the_owner_stops_only_a_private_one(
        keep_alive: int) -> None:
    require_embedded()
    told: list[str] = []
    settings = Settings(embedded_model=embedded.SMOLLM2, embedded_keep_alive=keep_alive,
                        max_tokens=8, journal=False)
    with Servers(told.append) as mine:
        ready = mine.start(embedded.chosen(settings), settings)
        assert told == [embedded.chosen(settings).notice]
        assert mine.serves(ready.api_base) and mine.ensure(ready.api_base) == ready.api_base
        assert not Servers().serves(ready.api_base)  # another owner's are not these
        spoken = LLM(ready, servers=mine)
        assert isinstance(spoken.backend, Direct)
        reply = [item for item in spoken.stream([{"role": "user", "content": "Say hi."}])
                 if not isinstance(item, str)][-1]
        assert reply.text.strip()
        assert isinstance(LLM(ready).backend, InProcess)  # no owner given: litellm's way
        address = ready.api_base.removesuffix("/v1")
        # its OpenMP threads sleep while they wait: spinning, they starve a busy machine
        assert server_environment(address).get("OMP_WAIT_POLICY") == "PASSIVE"
    assert not mine.serves(ready.api_base)
    assert accepts_connections(address, 1.0) is bool(keep_alive)
    for running in shared.records():
        shared.stop(running)
