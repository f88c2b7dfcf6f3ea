"""The no-network guard: a test fails on any connection attempt outside 127.0.0.0/8.

Two layers. In this process, an audit hook sees every `socket.connect`, `sendto` and
name lookup, refuses those that would leave the machine (before a packet is sent)
and records them, so a library that swallows the error still fails the test. For
child processes (the embedded model server, the CLI), `in_namespace` runs a command
in a new network namespace that has only loopback (`unshare -n`, as root).

    from tests.support import netguard
    with netguard.guard() as seen:
        ...
    assert not seen        # the `no_network` fixture does both for a whole test
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


class NetworkAccessError(ConnectionRefusedError):
    """Raised in place of a connection outside loopback while the guard is on."""


_state = threading.local()
_active: list[list[str]] = []  # the violation lists of the guards now on (any thread)
_lock = threading.Lock()
_installed = False


def is_loopback(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if not isinstance(host, str):
        return False
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback


def _outside(event: str, args: tuple) -> str | None:
    """What would leave the machine in this audit event, or None."""
    if event in ("socket.connect", "socket.sendto"):
        sock, address = args[0], args[1]
        if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6):
            return None  # unix sockets (D-Bus, PulseAudio) stay on the machine
        host = address[0] if isinstance(address, tuple) and address else address
        return None if is_loopback(host) else f"{event} to {address!r}"
    if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex"):
        host = args[0] if args else ""
        return None if is_loopback(host) else f"{event} for {host!r}"
    return None


def _hook(event: str, args: tuple) -> None:
    if not _active or not event.startswith("socket.") or getattr(_state, "inside", False):
        return
    _state.inside = True
    try:
        problem = _outside(event, args)
    finally:
        _state.inside = False
    if problem is None:
        return
    with _lock:
        for seen in _active:
            seen.append(problem)
    raise NetworkAccessError(f"no-network guard: {problem} refused")


@contextlib.contextmanager
def guard() -> Iterator[list[str]]:
    """Refuse and record connections outside loopback while the block runs."""
    global _installed
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)  # audit hooks cannot be removed; it idles when off
            _installed = True
        seen: list[str] = []
        _active.append(seen)
    try:
        yield seen
    finally:
        with _lock:
            _active.remove(seen)


@pytest.fixture
def no_network() -> Iterator[list[str]]:
    """The guard around one test; any attempt to leave the machine fails the test.

    Use it by name: `pytestmark = pytest.mark.usefixtures(no_network.__name__)`.
    """
    with guard() as seen:
        yield seen
    assert not seen, f"the test tried to reach the network: {seen}"


def namespace_problem() -> str | None:
    """Why `in_namespace` cannot work here, or None when it can."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "unshare -n needs root"
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (util-linux / iproute2)"
    return None


def in_namespace(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run `command` in a new network namespace with only loopback up."""
    script = 'ip link set lo up && exec "$@"'
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        ["unshare", "--net", "sh", "-c", script, "netns", *command], text=True, **kwargs
    )


def namespace_is_isolated() -> bool:
    """Inside a namespace made by `in_namespace`: no route leaves the machine."""
    try:
        with socket.create_connection(("192.0.2.1", 9), timeout=1):  # TEST-NET-1
            return False
    except OSError as exc:
        return "unreachable" in str(exc).lower()
