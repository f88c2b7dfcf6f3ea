"""`assistant mcp`: this assistant as an MCP server over stdio, with the SDK's server API.

Clients get `execute` and the `computer` actions (look at the screen, click by text,
type). Each call becomes code proposed to the Gate, so it is rated, previewed, approved by
a person here, run in the runtimes, journaled and undoable; a declined or blocked call
says so and runs nothing. Handlers wait for the person in a worker thread, so the server
stays responsive.
"""

from __future__ import annotations

from typing import Any

from assistant.runtime.languages import LANGUAGES
from assistant.tools.gate import Gate

INSTRUCTIONS = ("Every call is shown to the person at this computer, who approves or "
                "declines it; a declined call runs nothing.")


def build(gate: Gate) -> Any:
    """The SDK server with this assistant's tools, each going through `gate`."""
    import anyio
    from mcp.server.mcpserver import Image, MCPServer
    from mcp.types import ToolAnnotations

    from assistant.computer import views

    server = MCPServer("assistant", instructions=INSTRUCTIONS, log_level="WARNING")

    async def through_gate(language: str, code: str, asked_by: str) -> str:
        told: str = await anyio.to_thread.run_sync(gate.run, language, code, asked_by)
        return told

    @server.tool(description=f"Run code ({', '.join(LANGUAGES)}) on this computer once a "
                 "person approves it; returns its output.",
                 annotations=ToolAnnotations(destructive_hint=True, open_world_hint=True))
    async def execute(language: str, code: str) -> str:
        return await through_gate(language, code, "execute")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True), structured_output=False)
    async def computer_view() -> list[Any]:
        """Look at the screen: an image whose pixels are the coordinates clicks use."""
        before = views.latest(gate.parts.views)
        told = await through_gate("python", "computer.display.view()", "computer_view")
        after = views.latest(gate.parts.views)
        if after is None or after.image is None or (before and before.number == after.number):
            return [told]
        return [told, Image(path=after.image)]

    @server.tool(annotations=ToolAnnotations(destructive_hint=False))
    async def computer_click(text: str, index: int | None = None, near: str | None = None
                             ) -> str:
        """Click a control or text on the screen by its visible name."""
        options = "".join(f", {key}={value!r}" for key, value in
                          (("index", index), ("near", near)) if value is not None)
        return await through_gate("python", f"computer.mouse.click({text!r}{options})",
                                  "computer_click")

    @server.tool(annotations=ToolAnnotations(destructive_hint=False))
    async def computer_type(text: str, into: str | None = None) -> str:
        """Type text into the focused field, or into the field named `into`."""
        where = f", into={into!r}" if into is not None else ""
        return await through_gate("python", f"computer.keyboard.write({text!r}{where})",
                                  "computer_type")

    return server
