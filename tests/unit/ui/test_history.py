from __future__ import annotations

import pytest

from assistant.events import Error
from assistant.ui.history import print_conversation


def test_errors_show_their_text_from_this_and_older_journals(
        capsys: pytest.CaptureFixture[str]) -> None:
    now = {**Error("The LLM is down: start it").to_dict(), "ts": 0.0}
    older = {"kind": "error", "message": "Cannot reach the server", "ts": 0.0}  # Error.message
    print_conversation({"id": "20261123-1", "model": "m", "created": 0.0,
                        "records": [now, older]})
    shown = capsys.readouterr().out
    assert "The LLM is down: start it" in shown and "Cannot reach the server" in shown
