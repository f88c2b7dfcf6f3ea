from __future__ import annotations

import subprocess


def test_session_display_answers(display: str) -> None:
    result = subprocess.run(["xset", "q"], capture_output=True,
                            text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    assert "auto repeat:  off" in result.stdout
