"""Notifications go through notify-send; without a notification service the error says so."""

from __future__ import annotations

import shutil

import pytest

from assistant import computer
from tests.support.require import require


def test_notify_without_a_session_bus_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    require(shutil.which("notify-send"), "notify-send is not installed (libnotify-bin)")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path}/no-bus")
    with pytest.raises(computer.Unavailable, match=r"notification was not shown .*service"):
        computer.os.notify("Export finished", "3 files")


def test_notify_without_notify_send_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(computer.Unavailable, match="apt-get install libnotify-bin"):
        computer.os.notify("Export finished")
