"""The daemon's turns in the web page (`serve = true`): the app of `assistant serve`, fed by
the daemon's one conversation, whoever started the turn (the hotkey, the typed entry, the
page). The page is one more human channel for a waiting proposal: its decision goes to the
popup like the tray's, and the first answer counts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.events import Approval, Event, Proposal
from assistant.web.live import Busy, Hub, LiveTurn

if TYPE_CHECKING:
    from assistant.daemon.controller import Daemon

START_S = 10.0  # how long a request from the page may wait for the worker to begin it
RESOLVE_S = 5.0
READY = ("idle", "error", "speaking")


class DaemonWeb:
    """A TurnWatcher for the daemon and the Driver of the web app."""

    def __init__(self, daemon: Daemon, hub: Hub) -> None:
        self.daemon = daemon
        self.hub = hub
        self._lock = threading.Lock()
        self._turn: LiveTurn | None = None
        self._begun = threading.Condition(self._lock)
        self._decided: set[str] = set()

    # The worker thread (TurnWatcher).

    def begin(self, text: str) -> None:
        with self._lock:
            stale, self._turn = self._turn, None
        if stale is not None:  # the last turn failed before its end
            self.hub.end(stale, "the turn stopped")
        turn = self.hub.open_turn(text, self.daemon.assistant.conversation_id)
        with self._begun:
            self._turn = turn
            self._begun.notify_all()

    def show(self, event: Event) -> None:
        turn = self._turn
        if turn is None:
            return
        if isinstance(event, Proposal):
            policy, language = self.daemon.assistant.policy, event.language
            self.hub.offer(turn, event, self._resolver(event),
                           lambda code: policy.assess(language, code).risk)
        elif isinstance(event, Approval):
            with self._lock:
                self._decided.add(event.proposal_id)
        self.hub.publish(turn, event)

    def _resolver(self, proposal: Proposal) -> Callable[[Approval], None]:
        def resolve(approval: Approval) -> None:
            """Answer through the popup, again until it has taken the answer: the proposal
            reaches the popup a moment after the page may have seen it."""
            deadline = time.monotonic() + RESOLVE_S
            while time.monotonic() < deadline:
                with self._lock:
                    if proposal.id in self._decided:
                        return
                self.daemon.popup.resolve(approval)
                time.sleep(0.05)

        return lambda approval: threading.Thread(target=resolve, args=(approval,),
                                                 name="web-decision", daemon=True).start()

    # The server's handlers (Driver).

    def start(self, text: str, conversation_id: str = "") -> LiveTurn:
        daemon = self.daemon
        deadline = time.monotonic() + START_S
        while daemon.state not in READY:  # a turn whose end is out is over in a moment
            turn = self._turn
            if turn is None or not turn.over or time.monotonic() > deadline:
                raise Busy(f"the daemon is {daemon.state.replace('_', ' ')}: wait, or "
                           "interrupt")
            time.sleep(0.02)
        if conversation_id and conversation_id != daemon.assistant.conversation_id:
            daemon.open_conversation(conversation_id)
        with self._begun:
            before = self._turn
            daemon.submit(text)
            if not self._begun.wait_for(lambda: self._turn is not before, START_S):
                raise Busy("the daemon did not begin the request: try again")
            assert self._turn is not None
            return self._turn

    def undo(self) -> str:
        """Undo the latest run, as the tray's item does; raises UndoError when it cannot."""
        said = self.daemon.assistant.undo()
        self.daemon.popup.tell(said)
        return said

    def interrupt(self, turn: LiveTurn) -> bool:
        if turn is not self._turn:
            return False
        self.hub.cancel(turn, "interrupted from the web page")
        self.daemon.assistant.interrupt()
        return True


def serve(daemon: Daemon, log: Callable[[str], None]) -> Callable[[], None] | None:
    """Serve the page on 127.0.0.1:serve_port beside the daemon, or say why not; returns
    what stops it."""
    from assistant.journal import Journal, JournalError
    from assistant.llm.rate import shared
    from assistant.web.app import make_app
    from assistant.web.server import Server, bind
    from assistant.web.token import TokenFile

    settings = daemon.settings
    try:
        sock = bind("127.0.0.1", settings.serve_port)
        journal = Journal.in_dir(settings.data_path)  # its own: the daemon's is replaced
    except (OSError, JournalError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        log(f"assistant daemon: the web page is not served on 127.0.0.1:"
            f"{settings.serve_port} ({why}); set serve_port to a free port")
        return None
    tokens = TokenFile(settings.data_path)
    tokens.at_start(keep=settings.serve_keep_token)
    hub = Hub()
    web = DaemonWeb(daemon, hub)
    daemon.watchers.append(web)
    app = make_app(hub, web, journal, token=tokens,
                   calls=shared(settings.data_path, settings.serve_llm_calls_per_minute))
    server = Server(app, sock)
    thread = server.start()
    log(f"assistant daemon: web page on http://127.0.0.1:{server.port}/ (`assistant serve "
        "--url` prints the address with its token)")

    def stop() -> None:
        hub.close()
        server.stop()
        thread.join(5)
        journal.close()

    return stop
