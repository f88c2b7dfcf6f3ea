"""The popup with Tk on a thread of its own, as in the daemon, for as long as a test needs
it; it must stop cleanly after."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.ui.popup import Popup


@contextmanager
def popup_thread() -> Iterator[Popup]:
    from assistant.ui.popup import Popup

    shown = Popup()
    thread = threading.Thread(target=shown.run, name="tk", daemon=True)
    thread.start()
    assert shown.wait_ready(), "the popup's Tk loop did not start"
    yield shown
    shown.stop()
    thread.join(10)
    assert not thread.is_alive(), "the popup's Tk loop did not stop"
