"""Runs see the session bus through the filtering proxy: the keyring's Secret Service
never answers them, notifications do, and the real bus socket is out of their reach."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from assistant.config import ConfigError, load_settings
from assistant.runtime import Runtimes
from assistant.runtime.bus import VARIABLE, allowed, exposed, refused
from assistant.runtime.sandbox import Sandbox
from tests.support.dbus_session import has_owner, session_bus, started
from tests.support.require import require
from tests.unit.runtime.test_sandbox import run, work

__all__ = ["work"]

SERVICE = """
import sys
from gi.repository import Gio, GLib
name, address, answer = sys.argv[1:4]
xml = ("<node><interface name='test.Answer'><method name='Get'>"
       "<arg type='s' direction='out'/></method></interface></node>")
connection = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
    | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
def called(connection, sender, path, interface, method, parameters, invocation):
    invocation.return_value(GLib.Variant("(s)", (answer,)))
connection.register_object("/test", Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0],
                           called, None, None)
Gio.bus_own_name_on_connection(connection, name, Gio.BusNameOwnerFlags.NONE, None, None)
GLib.MainLoop().run()
"""


def ask(name: str) -> str:
    """Shell code a run uses to call `name`'s method on the session bus."""
    return (f'dbus-send --session --print-reply --dest={name} /test test.Answer.Get '
            f'2>&1 || echo "NO ANSWER"')


ANSWERS = {"org.freedesktop.secrets": "the-api-key", "org.freedesktop.Notifications": "shown",
           "org.a11y.Bus": "a11y", "org.mpris.MediaPlayer2.player": "playing"}
"""A service for each name, answering its word: the keyring's and those runs may use."""


@pytest.fixture
def bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A bus on a socket file with a Secret Service and the services runs may talk to."""
    require(shutil.which("xdg-dbus-proxy"), "xdg-dbus-proxy is not installed")
    require(shutil.which("dbus-daemon"), "dbus-daemon is not installed (dbus)")
    with session_bus(f"unix:path={tmp_path}/bus") as (address, _), ExitStack() as services:
        monkeypatch.setenv(VARIABLE, address)
        for name, answer in ANSWERS.items():
            services.enter_context(started(
                [sys.executable, "-c", SERVICE, name, address, answer], {"PATH": "/usr/bin"},
                lambda name=name: has_owner(address, name), 20))
        yield address


@pytest.mark.parametrize("guard", [True, False], ids=["guard", "full sandbox"])
def test_runs_get_no_answer_from_the_secret_service_but_one_from_allowed_services(
    bus: str, work: Path, guard: bool
) -> None:
    assert has_owner(bus, "org.freedesktop.secrets")  # the keyring answers outside runs
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox(guard=guard)) as runtimes:
        secret = run(runtimes, "shell", ask("org.freedesktop.secrets"))
        assert "the-api-key" not in secret.output and "NO ANSWER" in secret.output
        for name in ("org.freedesktop.Notifications", "org.a11y.Bus",
                     "org.mpris.MediaPlayer2.player"):
            answered = run(runtimes, "shell", ask(name))
            assert f'string "{ANSWERS[name]}"' in answered.output, name


def test_a_guarded_run_connecting_to_the_real_socket_file_reaches_only_the_proxy(
    bus: str, work: Path
) -> None:
    real = bus.removeprefix("unix:path=")
    code = (f"dbus-send --bus=unix:path={real} --print-reply --dest=org.freedesktop.DBus "
            "/org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner "
            "string:org.freedesktop.secrets; " + ask("org.freedesktop.secrets").replace(
                "--session", f"--bus=unix:path={real}"))
    with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox(guard=True)) as runtimes:
        end = run(runtimes, "shell", code)
    assert "boolean false" in end.output  # the filtered bus does not even show the name
    assert "the-api-key" not in end.output and "NO ANSWER" in end.output


def test_the_keyring_names_are_dropped_from_the_allow_list_even_when_added() -> None:
    listed = ["org.example.Notes", "org.freedesktop.secrets", "org.freedesktop.*",
              "org.kde.kwalletd6", "org.gnome.keyring", "org.mpris.MediaPlayer2.*"]
    assert allowed(listed) == [*allowed(), "org.example.Notes"]
    assert refused(listed) == ["org.freedesktop.secrets", "org.freedesktop.*",
                               "org.kde.kwalletd6", "org.gnome.keyring"]
    assert refused() == []
    assert "org.freedesktop.Notifications" in allowed() and "org.a11y.Bus" in allowed()


def test_a_service_the_user_allows_in_the_config_answers_runs_and_others_do_not(
    bus: str, work: Path, isolated_dirs: Path
) -> None:
    with started([sys.executable, "-c", SERVICE, "org.example.Notes", bus, "notes"],
                 {"PATH": "/usr/bin"}, lambda: has_owner(bus, "org.example.Notes"), 20):
        with Runtimes(timeout=20, cwd=str(work), sandbox=Sandbox(guard=True)) as runtimes:
            assert "NO ANSWER" in run(runtimes, "shell", ask("org.example.Notes")).output
        config = isolated_dirs / "config"
        (config / "config.toml").write_text(
            'run_bus_allow = ["org.example.Notes", "org.freedesktop.secrets"]\n')
        sandbox = Sandbox.from_settings(load_settings(env={"ASSISTANT_CONFIG_DIR": str(config)}))
        assert sandbox is not None
        with Runtimes(timeout=20, cwd=str(work), sandbox=sandbox) as runtimes:
            assert 'string "notes"' in run(runtimes, "shell", ask("org.example.Notes")).output
            secret = run(runtimes, "shell", ask("org.freedesktop.secrets")).output
            assert "the-api-key" not in secret and "NO ANSWER" in secret


def test_doctor_names_the_listed_services_not_let_through_and_how_to_list_them(
    bus: str, isolated_dirs: Path
) -> None:
    from assistant.commands.doctor import check_sandbox

    config = isolated_dirs / "config"
    (config / "config.toml").write_text('sandbox = "guard"\n'
                                        'run_bus_allow = ["org.example.Notes"]\n')
    fine = check_sandbox(load_settings(env={"ASSISTANT_CONFIG_DIR": str(config)}))
    assert fine.ok, fine.detail
    (config / "config.toml").write_text('sandbox = "guard"\n'
                                        'run_bus_allow = ["org.example.Notes", "org.gnome.*"]\n')
    check = check_sandbox(load_settings(env={"ASSISTANT_CONFIG_DIR": str(config)}))
    assert not check.ok
    assert check.detail == ("bwrap works; run_bus_allow: org.gnome.* not let through to runs: "
                            "they can reach the keyring")
    assert "one by one" in check.fix


def test_run_bus_allow_must_be_a_list_of_names(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("run_bus_allow = 3\n")
    with pytest.raises(ConfigError, match="run_bus_allow must be a list of names"):
        load_settings(env={"ASSISTANT_CONFIG_DIR": str(tmp_path)})


def test_an_abstract_bus_or_a_missing_proxy_is_said_and_no_bus_is_not(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    require(shutil.which("xdg-dbus-proxy"), "xdg-dbus-proxy is not installed")
    assert exposed({}) == ""
    assert exposed({VARIABLE: "unix:path=/run/user/1000/bus"}) == ""
    assert "not a socket file" in exposed({VARIABLE: "unix:abstract=/tmp/dbus-x,guid=1"})
    monkeypatch.setenv("PATH", "/nonexistent")
    assert "apt-get install xdg-dbus-proxy" in exposed({VARIABLE: "unix:path=/b"})
