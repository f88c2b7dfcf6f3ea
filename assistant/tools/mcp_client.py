"""One configured MCP server, reached over stdio or streamable HTTP with the official SDK.

The connection lives in one task of the toolbox's loop, from the first need to close():
the SDK's transports must be entered and left in the same task. Calls come from the
synchronous loop; a server that dies fails the call in flight at once, not at its timeout.
A server started over stdio runs under the guard, as runs do: it cannot change the
assistant's own files nor read its secrets (runtime/sandbox.py, runtime/secrets.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import shutil
import tempfile
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from assistant.runtime.sandbox import Sandbox
from assistant.tool_settings import ServerConfig
from assistant.tools.background import Background
from assistant.tools.tool import Hints, Tool, rate

START_SECONDS = 30.0
STOP_SECONDS = 5.0


class ToolError(Exception):
    """A call could not be made or did not finish; the message says what happened."""


@dataclass(frozen=True)
class Outcome:
    """A finished call: its text for the user and the LLM, and whether the tool failed."""

    text: str
    failed: bool
    seconds: float


class MCPServer:
    """A server's connection and tools; `start()` once, `call()` any number of times."""

    def __init__(self, config: ServerConfig, background: Background,
                 sandbox: Sandbox | None = None) -> None:
        self.config = config
        self.sandbox = sandbox  # the guard a stdio server runs under (None: none)
        self.tools: list[Tool] = []
        self._background = background
        self._client: Any = None
        self._task: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        # The server's stderr, kept out of the terminal; its last line explains a failure.
        self._errors = tempfile.TemporaryFile(  # noqa: SIM115 - open until close()
            "w+", encoding="utf-8", errors="replace")
        self._ended: asyncio.Event | None = None

    @property
    def source(self) -> str:
        return f"mcp:{self.config.name}"

    @property
    def running(self) -> bool:
        """Connected and not stopped since (a server that died mid-call is not)."""
        return (self._client is not None and self._stop is not None
                and not self._stop.is_set())

    def start(self) -> Future[None]:
        """Connect and list the tools; the future fails with the reason in one line."""
        return self._background.submit(self._connect())

    def call(self, tool: str, arguments: dict[str, Any], timeout: float) -> Future[Outcome]:
        return self._background.submit(self._call(tool, arguments, timeout))

    def close(self) -> None:
        if self._task is not None and self._stop is not None:
            # A server that will not stop is left to its transport, which kills it.
            with contextlib.suppress(Exception):
                self._background.submit(self._close()).result(STOP_SECONDS + 1)
        self._errors.close()

    def last_error_line(self) -> str:
        """The last line the server wrote on stderr: often the reason it failed."""
        try:
            self._errors.seek(0)
            lines = [line.strip() for line in self._errors.read().splitlines() if line.strip()]
        except (OSError, ValueError):
            return ""
        return lines[-1][:200] if lines else ""

    async def _connect(self) -> None:
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._stop, self._ended = asyncio.Event(), asyncio.Event()
        self._task = asyncio.create_task(self._serve(ready))
        await asyncio.wait_for(asyncio.shield(ready), START_SECONDS)

    async def _serve(self, ready: asyncio.Future[None]) -> None:
        """Hold the connection open until close(); set `ready` once the tools are known."""
        from mcp import Client, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client

        config = self.config
        assert self._stop is not None and self._ended is not None
        try:
            async with contextlib.AsyncExitStack() as stack:
                target: Any = config.url
                if config.url and config.headers:  # the SDK leaves a client it is given open
                    http = await stack.enter_async_context(_http_client(config.headers))
                    target = streamable_http_client(config.url, http_client=http)
                if not config.url:
                    argv = [config.command, *config.args]
                    if self.sandbox is not None:
                        argv = self.sandbox.command(self._found(argv), os.getcwd())
                    parameters = StdioServerParameters(
                        command=argv[0], args=argv[1:], env=config.env or None)
                    target = stdio_client(parameters, errlog=self._errors)
                client = await stack.enter_async_context(
                    Client(target, client_info=_client_info()))
                self._client = client
                self.tools = await self._list(client)
                ready.set_result(None)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            self._client = None
            self._ended.set()

    def _found(self, argv: list[str]) -> list[str]:
        """`argv` with its program found here, as it would be without the guard (inside,
        a missing one would be reported by the guard's own `env`, less clearly)."""
        path = (self.config.env or {}).get("PATH") or os.environ.get("PATH")
        program = shutil.which(argv[0], path=path)
        if program is None:
            raise FileNotFoundError(errno.ENOENT, "command not found", argv[0])
        return [program, *argv[1:]]

    async def _list(self, client: Any) -> list[Tool]:
        found: list[Tool] = []
        cursor: str | None = None
        while True:
            page = await client.list_tools(cursor=cursor)
            found += [self._tool(item) for item in page.tools]
            cursor = page.next_cursor
            if not cursor:
                return found

    def _tool(self, item: Any) -> Tool:
        name = f"{self.config.name}.{item.name}"
        notes = item.annotations
        hints = Hints(notes.read_only_hint, notes.destructive_hint,
                      notes.open_world_hint) if notes is not None else None
        risk, reasons = rate(name, hints, self.config.rule_for(item.name))
        return Tool(name, self.source, item.description or "", dict(item.input_schema or {}),
                    risk, reasons)

    async def _call(self, tool: str, arguments: dict[str, Any], timeout: float) -> Outcome:
        client, ended = self._client, self._ended
        if client is None or ended is None or ended.is_set():
            raise ToolError(f"the MCP server {self.config.name} is not running")
        started = time.monotonic()
        call = asyncio.ensure_future(client.call_tool(tool, arguments))
        gone = asyncio.ensure_future(ended.wait())
        try:
            await asyncio.wait({call, gone}, timeout=timeout or None,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not call.done():
            call.cancel()
            if ended.is_set():
                raise ToolError(self._died())
            raise ToolError(f"no answer from the MCP server {self.config.name} in {timeout:g} s")
        try:
            result = call.result()
        except Exception as exc:
            if ended.is_set() or "closed" in str(exc).lower():
                if self._stop is not None:
                    self._stop.set()  # the connection is gone: leave it, so `running` says so
                raise ToolError(self._died()) from None
            raise ToolError(f"the MCP server {self.config.name} refused the call: {exc}") from None
        return Outcome(result_text(result), bool(result.is_error), time.monotonic() - started)

    def _died(self) -> str:
        said = self.last_error_line()
        return (f"the MCP server {self.config.name} stopped during the call"
                + (f" ({said})" if said else "") + "; the tool did not answer")

    async def _close(self) -> None:
        assert self._stop is not None and self._ended is not None
        self._stop.set()
        try:
            await asyncio.wait_for(self._ended.wait(), STOP_SECONDS)
        except asyncio.TimeoutError:
            if self._task is not None:
                self._task.cancel()


def result_text(result: Any) -> str:
    """The words of a tool result; other content is named, not inlined."""
    parts: list[str] = []
    for item in result.content or []:
        kind = getattr(item, "type", "")
        if kind == "text":
            parts.append(item.text)
        elif kind in ("image", "audio"):
            parts.append(f"[{kind}: {getattr(item, 'mime_type', '')}]")
        elif kind == "resource":
            resource = item.resource
            parts.append(getattr(resource, "text", None) or f"[resource: {resource.uri}]")
        elif kind == "resource_link":
            parts.append(f"[resource link: {item.uri}]")
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)


def _http_client(headers: dict[str, str]) -> Any:
    """An HTTP client sending `headers`, with the timeouts the SDK's own default has: a
    server may hold a response stream open for minutes."""
    import httpx2

    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0))


def _client_info() -> Any:
    from mcp import Implementation

    return Implementation(name="assistant", version="0.1.0")
