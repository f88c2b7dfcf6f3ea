"""Notifications go through notify-send; without a notification service the error says so."""

from __future__ import annotations

import os
import shutil

import pytest

from assistant import computer


def test_notify_without_a_session_bus_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    if shutil.which("notify-send") is None:
        if os.environ.get("CI"):
            raise AssertionError("notify-send is not installed: scripts/setup installs it")
        pytest.skip("notify-send is not installed (sudo apt-get install libnotify-bin)")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/no-bus")
    with pytest.raises(computer.Unavailable, match=r"notification was not shown .*service"):
        computer.os.notify("Export finished", "3 files")


def test_notify_without_notify_send_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(computer.Unavailable, match="apt-get install libnotify-bin"):
        computer.os.notify("Export finished")
