"""The embedded servers belong to whoever started them (servers/started.py): a private
one and the shared one are served alike, only by their owner's Servers, and the owner's
close stops a private one and leaves the shared one to its keep-alive."""

from __future__ import annotations

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
    assert not mine.serves(ready.api_base)
    assert accepts_connections(address, 1.0) is bool(keep_alive)
    for running in shared.records():
        shared.stop(running)
