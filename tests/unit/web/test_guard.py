from __future__ import annotations

import pytest

from assistant.web.guard import cookie_name, host_name, is_loopback


@pytest.mark.parametrize(("host", "name"), [
    ("127.0.0.1:8421", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:80", "::1"),
    ("::1", "::1"), ("evil.example:8421", "evil.example"),
])
def test_host_name(host: str, name: str) -> None:
    assert host_name(host) == name


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("192.168.1.2", False), ("example.com", False),
])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_the_cookie_is_named_after_the_port_the_request_reached() -> None:
    assert cookie_name({"type": "http", "server": ("127.0.0.1", 8421)}) == "assistant_token_8421"
    assert cookie_name({"type": "http", "server": ("::1", 9000)}) == "assistant_token_9000"
