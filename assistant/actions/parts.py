"""The parts an action needs, built from Settings in one place for every way in: the
conversation (api.py), `assistant mcp`, `assistant preview`, the web page and the Python
API. The runtimes are transactional wherever previews can work, so an action is
previewed, rated on its effect and undoable whichever way it came; the run limits, the
sandbox, the policy and the toolbox are the same too.

What a way in may do with them is told by what they can do (`Foreseeing`), never by their
class."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from assistant.config import Settings
from assistant.deny import DenyRules
from assistant.journal import Journal
from assistant.runtime import Runtimes
from assistant.runtime.bus import exposed
from assistant.runtime.sandbox import Sandbox
from assistant.runtime.watch import Limits
from assistant.safety.policy import Approver, Policy
from assistant.safety.redact import Redactor

if TYPE_CHECKING:
    from assistant.tools.toolbox import Toolbox
    from assistant.whatif.preview import Preview

Tell = Callable[[str], None]
"""Where a part that cannot be what Settings asked says so, one line each."""


@runtime_checkable
class Foreseeing(Protocol):
    """Runtimes that can run code once in a what-if world before a person is asked, and
    reuse that preview for the run that follows (assistant.whatif.transaction)."""

    def foresee(self, language: str, code: str) -> Preview | None:
        """The preview of `code`; None where none can be made."""


@dataclass
class Parts:
    """What one way in acts with; `close` ends what it started."""

    settings: Settings
    redact: Redactor
    journal: Journal | None
    runtimes: Runtimes
    policy: Policy
    views: Path  # where runs' `computer` writes its views of the screen (computer/views.py)
    tools: Toolbox | None = None

    def foreseeing(self) -> Foreseeing | None:
        """The runtimes, where they can preview an action before it is approved."""
        return self.runtimes if isinstance(self.runtimes, Foreseeing) else None

    def close(self) -> None:
        self.runtimes.close()
        if self.tools is not None:
            self.tools.close()
        if self.journal is not None:
            self.journal.close()
        shutil.rmtree(self.views, ignore_errors=True)


def build(settings: Settings, approver: Approver | None, tell: Tell, *, tools: bool = True,
          **runtime: Any) -> Parts:
    """The parts for `settings`; `tools`: with the MCP servers' and plugins' tools;
    `runtime`: options for the runtimes beyond Settings (e.g. `cwd`)."""
    redact = Redactor.from_environment(settings.api_key)
    journal = Journal.in_dir(settings.data_path, redact) if settings.journal else None
    made = runtimes(settings, tell, **runtime)
    views = Path(tempfile.mkdtemp(prefix="assistant-screen-"))
    made.env = views_env(settings, views, made.env)
    try:
        toolbox = toolbox_for(settings, tell) if tools else None
        return Parts(settings, redact, journal, made, policy(settings, approver, toolbox),
                     views, toolbox)
    except BaseException:
        made.close()
        shutil.rmtree(views, ignore_errors=True)
        if journal is not None:
            journal.close()
        raise


def views_env(settings: Settings, views: Path, base: dict[str, str] | None
              ) -> dict[str, str]:
    """The environment runtimes start with, so `computer` writes its views into `views`,
    where the way in looks for them (loop/screen.py, `assistant mcp`'s computer_view)."""
    from assistant.computer import views as screen_views

    return {**(os.environ if base is None else base),
            screen_views.DIR_VARIABLE: str(views),
            screen_views.MAX_SIDE_VARIABLE: str(settings.screenshot_max_side)}


def limits(settings: Settings) -> Limits:
    """Each run's memory, process, CPU and output caps."""
    return Limits(settings.max_memory_mb, settings.max_processes, settings.max_cpu_seconds,
                  settings.max_run_output)


def sandbox(settings: Settings, tell: Tell) -> Sandbox | None:
    """The sandbox asked for; the guard, where bubblewrap cannot work here, is said once
    and left off, so runs go on."""
    chosen = Sandbox.from_settings(settings)
    if chosen is not None and chosen.guard and chosen.problem():
        tell(f"the assistant's own files are not guarded from runs: {chosen.problem()}")
        return None
    if chosen is not None and (bus := exposed()):
        tell(bus)
    return chosen


def runtimes(settings: Settings, tell: Tell, **options: Any) -> Runtimes:
    """Transactional runtimes (preview, undo, held to the preview) with `undo` on where
    previews work, running the languages installed plugins add too; where previews
    cannot work, `tell` hears why, once."""
    from assistant.plugins.registry import languages
    from assistant.whatif.transaction import runtimes_for

    return runtimes_for(settings, tell, timeout=settings.timeout,
                        max_output=settings.max_output, limits=limits(settings),
                        sandbox=sandbox(settings, tell), env_allow=settings.run_env_allow,
                        languages=languages(), **options)


def policy(settings: Settings, approver: Approver | None, tools: Toolbox | None = None
           ) -> Policy:
    return Policy(approver, mode=settings.approval, deny=DenyRules.parse(settings.deny),
                  protected=settings.own_paths, tools=tools, places=settings.auto_places)


def toolbox_for(settings: Settings, tell: Tell) -> Toolbox | None:
    """The configured servers and the installed plugins' tools; None when there is nothing
    to offer. A plugin that failed to load is said."""
    from assistant.plugins.registry import installed
    from assistant.tools.toolbox import Toolbox

    plugins = installed()
    for problem in plugins.problems:
        tell(problem)
    if not settings.mcp_servers and not plugins.tools:
        return None
    return Toolbox(settings.mcp_servers, plugins.tools, plugin_rules=settings.plugin_tools,
                   timeout=settings.timeout, max_output=settings.max_output,
                   offline=settings.offline,
                   sandbox=Sandbox.guard_for(settings) if settings.mcp_servers else None)
