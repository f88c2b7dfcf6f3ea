"""The HTTP API and the page, as one Starlette app behind the Guard.

    POST /api/turns                       {"text", "conversation_id"?} -> 202 {"turn_id", ...}
    GET  /api/turns/{id}/events           the turn's events (server-sent events), then live
    GET  /api/events                      every live turn's events (the daemon's voice turns too)
    POST /api/turns/{id}/interrupt        stop its LLM stream or run
    POST /api/proposals/{id}/decision     {"approved", "sha256", "code"?, "always"?,
                                           "confirm"?}
    POST /api/undo                        put back what the latest run changed -> {"said"}
    GET  /api/conversations[?q=&limit=]   the journal's conversations, searched
    GET  /api/conversations/{id}          one conversation, every recorded step

Settings cannot be changed here. A decision names the sha256 of the code it was shown; any
other code gets 409 and nothing runs. The page's yes to high-risk code gets 428 and a
one-time `confirm` the first time; only the same yes sent again with it runs (see
live.Confirmation). A new turn is refused (429) while the limit on LLM calls is reached
(assistant.llm.rate, which the LLM adapter counts every call against).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from assistant.journal import Journal, JournalError
from assistant.llm.rate import CallRate
from assistant.web.guard import CALLER, Guard
from assistant.web.live import Busy, Confirmation, Conflict, Hub, LiveTurn, page_decision
from assistant.web.render import as_data, code_css, sse
from assistant.web.token import TokenFile
from assistant.whatif.undo import UndoError

DECISION_WAIT_S = 5.0  # how long a decision waits to return the policy's decision
ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}


class Driver(Protocol):
    """What runs the turns: `assistant serve`'s own conversations, or the daemon's."""

    def start(self, text: str, conversation_id: str = "") -> LiveTurn: ...
    def interrupt(self, turn: LiveTurn) -> bool: ...
    def undo(self) -> str: ...


def error(status: int, why: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": why}, status_code=status, headers=headers)


async def body_of(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    return body


class Api:
    """The handlers; each reaches the turns through the hub and the driver."""

    def __init__(self, hub: Hub, driver: Driver, journal: Journal, limit: CallRate) -> None:
        self.hub = hub
        self.driver = driver
        self.journal = journal
        self.limit = limit

    def routes(self) -> list[Route]:
        return [
            Route("/", self.page),
            Route("/static/{name}", self.asset),
            Route("/api/turns", self.start_turn, methods=["POST"]),
            Route("/api/turns", self.turns),
            Route("/api/turns/{id}/events", self.turn_events),
            Route("/api/events", self.all_events),
            Route("/api/turns/{id}/interrupt", self.interrupt, methods=["POST"]),
            Route("/api/proposals/{id}/decision", self.decide, methods=["POST"]),
            Route("/api/undo", self.undo, methods=["POST"]),
            Route("/api/conversations", self.conversations),
            Route("/api/conversations/{id}", self.conversation),
        ]

    async def page(self, request: Request) -> Response:
        return Response(_asset("index.html"), media_type="text/html; charset=utf-8")

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name == "code.css":
            return Response(code_css(), media_type="text/css")
        if name not in ASSETS:
            return error(404, "no such file")
        return Response(_asset(name), media_type=f"{ASSETS[name]}; charset=utf-8")

    async def start_turn(self, request: Request) -> Response:
        try:
            body = await body_of(request)
        except ValueError as exc:
            return error(400, str(exc))
        text, conversation = body.get("text"), body.get("conversation_id") or ""
        if not isinstance(text, str) or not text.strip() or not isinstance(conversation, str):
            return error(400, "send {\"text\": \"...\"} and optionally a conversation_id")
        wait = self.limit.wait_s()
        if wait:
            return error(429, f"too many LLM calls this minute: try again in {wait:.0f} s",
                         **{"Retry-After": str(int(wait) + 1)})
        try:
            turn = await asyncio.to_thread(self.driver.start, text.strip(), conversation)
        except (Busy, JournalError) as exc:
            return error(409 if isinstance(exc, Busy) else 404, str(exc))
        return JSONResponse(turn.describe(), status_code=202)

    async def turns(self, request: Request) -> Response:
        return JSONResponse([turn.describe() for turn in self.hub.live()])

    async def turn_events(self, request: Request) -> Response:
        turn_id = request.path_params["id"]
        if self.hub.turn(turn_id) is None:
            return error(404, f"no turn {turn_id!r}")
        last = request.headers.get("last-event-id", "")
        index = last.removeprefix(turn_id + ".")
        after = int(index) if last.startswith(turn_id + ".") and index.isdigit() else -1
        return _stream(self.hub, turn_id, after)

    async def all_events(self, request: Request) -> Response:
        return _stream(self.hub, None, -1)

    async def interrupt(self, request: Request) -> Response:
        turn = self.hub.turn(request.path_params["id"])
        if turn is None or turn.over:
            return error(404, "no such turn is running")
        await asyncio.to_thread(self.driver.interrupt, turn)
        return JSONResponse({"interrupted": turn.id}, status_code=202)

    async def decide(self, request: Request) -> Response:
        proposal_id = request.path_params["id"]
        try:
            body = await body_of(request)
        except ValueError as exc:
            return error(400, str(exc))
        approved, digest, code = body.get("approved"), body.get("sha256"), body.get("code", "")
        confirm = body.get("confirm", "")
        if (not isinstance(approved, bool) or not isinstance(digest, str)
                or not isinstance(code, str) or not isinstance(confirm, str)):
            return error(400, "send {\"approved\": true|false, \"sha256\": \"<sha256 of the "
                              "code shown>\"} and optionally \"code\" (edited), \"always\" "
                              "and \"confirm\"")
        approval = page_decision(proposal_id, approved=approved, code=code,
                                 always=body.get("always") is True,
                                 caller=request.scope.get(CALLER, "api"))
        deadline = time.monotonic() + DECISION_WAIT_S
        while True:
            try:
                decided = self.hub.decide(proposal_id, digest, approval, confirm)
                break
            except LookupError as exc:
                if not self.hub.shown(proposal_id) or time.monotonic() > deadline:
                    return error(404, str(exc.args[0]))
                await asyncio.sleep(0.005)
            except Conflict as exc:
                return error(409, str(exc))
        if isinstance(decided, Confirmation):
            return JSONResponse({
                "error": "high risk: nothing ran; to run it, send the same decision again "
                         "with this confirm", "confirm": decided.token,
                "proposal_id": decided.proposal_id, "sha256": decided.sha256},
                status_code=428)
        turn = decided
        made = await _decision(turn, proposal_id)
        return JSONResponse(made or {"accepted": proposal_id}, status_code=200 if made
                            else 202)

    async def undo(self, request: Request) -> Response:
        """Undo the latest run (the page's Undo button); 409 with the one-line reason when
        it cannot (nothing to undo, or its files changed since)."""
        try:
            said = await asyncio.to_thread(self.driver.undo)
        except UndoError as exc:
            return error(409, str(exc))
        return JSONResponse({"said": said})

    async def conversations(self, request: Request) -> Response:
        query = request.query_params.get("q", "")
        try:
            limit = max(1, min(int(request.query_params.get("limit", "50")), 500))
        except ValueError:
            return error(400, "limit must be a number")
        rows = await asyncio.to_thread(self.journal.conversations, limit, query)
        return JSONResponse(rows)

    async def conversation(self, request: Request) -> Response:
        try:
            found = await asyncio.to_thread(self.journal.conversation, request.path_params["id"])
        except JournalError as exc:
            return error(404, str(exc))
        found["records"] = [as_data(record) for record in found["records"]]
        found.pop("messages", None)  # the records say it all, and the page needs no more
        return JSONResponse(found)


async def _decision(turn: LiveTurn, proposal_id: str) -> dict[str, Any] | None:
    """The Approval the policy made of a decision, once the turn shows it."""
    deadline = time.monotonic() + DECISION_WAIT_S
    while time.monotonic() < deadline:
        for data in reversed(turn.events):
            if data.get("kind") == "approval" and data.get("proposal_id") == proposal_id:
                return data
        await asyncio.sleep(0.01)
    return None


def _stream(hub: Hub, turn_id: str | None, after: int) -> StreamingResponse:
    async def messages() -> AsyncIterator[bytes]:
        yield b"retry: 1000\n\n"
        async for message in hub.follow(turn_id, after):
            yield b": keep-alive\n\n" if message is None else sse(*message)

    return StreamingResponse(messages(), media_type="text/event-stream",
                             headers={"X-Accel-Buffering": "no"})


def _asset(name: str) -> bytes:
    return resources.files("assistant.web").joinpath("static", name).read_bytes()


def make_app(  # noqa: PLR0913 - three parts, then keyword-only options
        hub: Hub, driver: Driver, journal: Journal, *, token: TokenFile,
        hosts: tuple[str, ...] = (), tls: bool = False, calls: CallRate | None = None) -> Guard:
    """The app behind its guard; `hosts` are the names it answers to besides loopback;
    `calls` is the limit on LLM calls the turns it starts count against."""
    api = Api(hub, driver, journal, calls or CallRate())
    return Guard(Starlette(routes=api.routes()), token=token, hosts=hosts, tls=tls)
