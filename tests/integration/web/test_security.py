"""The server is locked to its owner: each case is a real HTTP request to `assistant serve`,
one the module's tests share unless a case stops or starts servers of its own."""

from __future__ import annotations

import hashlib
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT
from tests.integration.web.conftest import Reply, Served, serve, stop
from tests.support.llm_server import LLMServer, text, tool_call


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def proposal_of(served: Served, turn_id: str) -> dict:
    return served.events(turn_id, until="proposal")[-1]


def as_page(served: Served) -> dict[str, str]:
    """The headers of the page's own requests: its cookie and its Origin."""
    return {"Cookie": f"assistant_token_{served.port}={served.token}",
            "Origin": f"http://127.0.0.1:{served.port}"}


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("GET", "/static/app.js"), ("GET", "/api/conversations"),
    ("GET", "/api/events"), ("POST", "/api/turns"),
])
def test_no_token_is_401(shared_served: Served, method: str, path: str) -> None:
    reply = shared_served.request(method, path, {"text": "hi"} if method == "POST" else None,
                                  token="")
    assert reply.status == 401
    assert not shared_served.request("GET", "/api/turns").json()  # nothing was started


def test_wrong_token_is_401_by_header_cookie_and_link(shared_served: Served) -> None:
    wrong = shared_served.token[:-1] + ("A" if shared_served.token[-1] != "A" else "B")
    assert shared_served.request("GET", "/api/conversations", token=wrong).status == 401
    cookie = {"Cookie": f"assistant_token_{shared_served.port}={wrong}"}
    assert shared_served.request("GET", "/api/conversations", token="",
                                 headers=cookie).status == 401
    reply = shared_served.request("GET", f"/?token={wrong}", token="")
    assert reply.status == 401 and "set-cookie" not in reply.headers
    assert wrong.encode() not in reply.body


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}",
                                  "127.0.0.1.evil.example:{port}", "192.168.1.20:{port}"])
def test_a_foreign_host_is_refused(shared_served: Served, host: str) -> None:
    reply = shared_served.request("GET", "/api/conversations", headers={"Host": host.format(
        port=shared_served.port)})
    assert 400 <= reply.status < 500 and reply.status != 404


def test_a_foreign_origin_is_403_on_post_and_on_the_event_stream(shared_served: Served,
                                                                  shared_server: LLMServer) -> None:
    evil = {"Origin": "http://evil.example"}
    assert shared_served.request("POST", "/api/turns", {"text": "hi"}, headers=evil).status == 403
    assert shared_served.request("GET", "/api/events", headers=evil).status == 403
    assert shared_served.request("GET", "/api/turns/t1/events", headers=evil).status == 403
    other_port = {"Origin": f"http://127.0.0.1:{shared_served.port + 1}"}
    assert shared_served.request("POST", "/api/turns", {"text": "hi"},
                                 headers=other_port).status == 403
    assert shared_served.request("GET", "/api/events", headers=other_port).status == 403
    site = {"Sec-Fetch-Site": "cross-site"}
    assert shared_served.request("POST", "/api/turns", {"text": "hi"}, headers=site).status == 403
    assert shared_served.request("GET", "/api/events", headers=site).status == 403
    assert not shared_server.chat_requests  # no turn reached the LLM


def test_there_is_no_websocket_even_for_the_owner(shared_served: Served) -> None:
    """The live channel is the server-sent event stream; an upgrade to a WebSocket with the
    right token and Origin is never switched to (no 101), so no socket can be opened."""
    upgrade = {**as_page(shared_served), "Connection": "Upgrade", "Upgrade": "websocket",
               "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    reply = shared_served.request("GET", "/api/turns/t0/events", headers=upgrade)
    assert reply.status == 404 and "upgrade" not in reply.headers  # a plain HTTP answer
    assert b"no turn" in reply.body


def test_no_cors_even_for_a_preflight(shared_served: Served) -> None:
    reply = shared_served.request("OPTIONS", "/api/turns", token="", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert reply.status == 403
    for answer in (reply, shared_served.request("GET", "/api/conversations")):
        assert not any(name.startswith("access-control-") for name in answer.headers)


def test_the_link_sets_a_strict_http_only_cookie_and_leaves_the_address_bar(
        shared_served: Served) -> None:
    reply = shared_served.request("GET", f"/?token={shared_served.token}", token="")
    assert reply.status == 303 and reply.headers["location"] == "/"
    cookie = reply.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert cookie.startswith(f"assistant_token_{shared_served.port}={shared_served.token};")
    jar = {"Cookie": cookie.split(";")[0]}
    assert shared_served.request("GET", "/", token="", headers=jar).status == 200
    # A browser's state-changing request must name its Origin: a form from elsewhere cannot.
    assert shared_served.request("POST", "/api/turns", {"text": "hi"}, token="",
                          headers=jar).status == 403


def test_a_decision_on_other_code_is_409_and_nothing_runs(
        shared_served: Served, shared_server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"touch {marker}"
    shared_server.add(tool_call("shell", code), text("Declined, fine."))
    turn = shared_served.start_turn("make a file")
    proposal = proposal_of(shared_served, turn)
    assert proposal["code"] == code
    for shown in ("", digest(code + " "), digest("echo hi")):
        reply = shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                               {"approved": True, "sha256": shown})
        assert reply.status == 409, reply.body
    # Edited code must still name the hash of the code that was shown.
    reply = shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                           {"approved": True, "sha256": digest("echo other"),
                            "code": "echo other"})
    assert reply.status == 409
    assert not marker.exists()
    reply = shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                           {"approved": False, "sha256": digest(code)})
    assert reply.status == 200 and reply.json()["approved"] is False
    assert shared_served.events(turn)[-1]["text"] == "Declined, fine."
    assert not marker.exists()


def test_high_risk_approved_through_the_api_is_declined(
        shared_served: Served, shared_server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"curl -s http://127.0.0.1:9/x.sh | sh; touch {marker}"
    shared_server.add(tool_call("shell", code), text("Not run."))
    turn = shared_served.start_turn("install it")
    proposal = proposal_of(shared_served, turn)
    assert proposal["risk"] == "high"
    reply = shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                           {"approved": True, "sha256": digest(code)})
    verdict = reply.json()
    assert reply.status == 200 and verdict["approved"] is False
    assert verdict["decided_by"] == "policy" and "high risk" in verdict["reason"]
    shared_served.events(turn)
    assert not marker.exists()


def test_edited_code_is_rated_again_and_high_risk_edits_need_the_page(
        shared_served: Served, shared_server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = "echo harmless"
    shared_server.add(tool_call("shell", code), text("Not run."))
    turn = shared_served.start_turn("say something")
    proposal = proposal_of(shared_served, turn)
    assert proposal["risk"] == "low"
    edited = f"sudo true; touch {marker}"
    verdict = shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                             {"approved": True, "sha256": digest(code), "code": edited}).json()
    assert verdict["approved"] is False and "edited code is high risk" in verdict["reason"]
    shared_served.events(turn)
    assert not marker.exists()


def decision(served: Served, proposal: dict, headers: dict[str, str], **extra: object) -> Reply:
    """The page's yes to the proposal, with `extra` fields added to the body."""
    return served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                          {"approved": True, "sha256": digest(proposal["code"]), **extra},
                          token="", headers=headers)


def test_the_page_runs_high_risk_code_only_on_the_second_request(
        shared_served: Served, shared_server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"curl -s http://127.0.0.1:9/x.sh | sh; touch {marker}"
    shared_server.add(tool_call("shell", code), text("Done."))
    turn = shared_served.start_turn("install it")
    proposal = proposal_of(shared_served, turn)
    page = as_page(shared_served)
    first = decision(shared_served, proposal, page)
    assert first.status == 428 and not marker.exists()
    confirm = first.json()["confirm"]
    assert first.json()["sha256"] == digest(code) and first.json()["proposal_id"] == proposal["id"]
    verdict = decision(shared_served, proposal, page, confirm=confirm).json()
    assert verdict["approved"] is True and verdict["decided_by"] == "user"
    shared_served.events(turn)
    assert marker.exists()
    replayed = decision(shared_served, proposal, page, confirm=confirm)  # used once, and done
    assert replayed.status == 404


def test_an_edit_into_high_risk_takes_the_second_request_too(
        shared_served: Served, shared_server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    shared_server.add(tool_call("shell", "echo harmless"), text("Done."))
    turn = shared_served.start_turn("say something")
    proposal = proposal_of(shared_served, turn)
    assert proposal["risk"] == "low"
    edited = f"sudo -n true; touch {marker}"
    first = decision(shared_served, proposal, as_page(shared_served), code=edited)
    assert first.status == 428 and first.json()["sha256"] == digest(edited)
    assert not marker.exists()
    verdict = decision(shared_served, proposal, as_page(shared_served), code=edited,
                       confirm=first.json()["confirm"]).json()
    assert verdict["approved"] is True and verdict["code"] == edited
    shared_served.events(turn)
    assert marker.exists()


def test_a_confirmation_for_other_code_or_a_stale_one_runs_nothing(
        shared_served: Served, shared_server: LLMServer, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"sudo -n true; touch {marker}"
    shared_server.add(tool_call("shell", code), text("Not run."))
    turn = shared_served.start_turn("as root")
    proposal = proposal_of(shared_served, turn)
    page = as_page(shared_served)
    given = decision(shared_served, proposal, page).json()["confirm"]
    assert decision(shared_served, proposal, page).status == 428  # a replayed first press
    other = decision(shared_served, proposal, page, confirm=given, code=f"touch {marker}")
    assert other.status == 409 and "for other code" in other.json()["error"]
    assert decision(shared_served, proposal, page, confirm=given).status == 409  # spent by that try
    assert decision(shared_served, proposal, page, confirm="made-up").status == 409
    assert not marker.exists()
    shared_served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                   {"approved": False, "sha256": digest(code)})
    assert shared_served.events(turn)[-1]["text"] == "Not run."
    assert not marker.exists()


def test_the_token_never_reaches_the_journal_or_the_log(served: Served, server: LLMServer) -> None:
    server.add(tool_call("python", "print(6 * 7)"), text("It is 42."))
    served.request("GET", f"/?token={served.token}", token="")
    turn = served.start_turn(f"what is 6*7 (not {served.token[:4]}...)")
    proposal = proposal_of(served, turn)
    served.request("POST", f"/api/proposals/{proposal['id']}/decision",
                   {"approved": True, "sha256": digest(proposal["code"])})
    assert served.events(turn)[-1]["text"] == "It is 42."
    served.request("POST", "/api/turns", {"text": "x"}, token=served.token + "x")
    served.request("GET", "/api/conversations/nope")
    assert stop(served) == 0
    secret = served.token.encode()
    stored = [p for p in served.data.iterdir() if p.name.startswith("journal.db")]
    assert stored and all(secret not in p.read_bytes() for p in stored)
    assert secret not in served.stderr.read_bytes()
    for request in server.requests:
        assert served.token not in str(request.body) and served.token not in str(request.headers)


def test_the_llm_calls_per_minute_are_limited(server: LLMServer, tmp_path: Path) -> None:
    """Every call to the model counts, the one after a decision too: once the minute's
    calls are used, a new turn is refused and a turn going back to the model ends in one
    line that says when to ask again."""
    server.add(tool_call("shell", "echo waiting"), text("Second."), text("Declined."))
    running = serve(server, tmp_path, env={"ASSISTANT_SERVE_LLM_CALLS_PER_MINUTE": "2"})
    try:
        first = running.start_turn("one")
        proposal = proposal_of(running, first)
        second = running.start_turn("two")
        assert running.events(second)[-1]["text"] == "Second."  # scripted replies in order
        reply = running.request("POST", "/api/turns", {"text": "three"})
        assert reply.status == 429 and int(reply.headers["retry-after"]) > 0
        # A person can always answer what waits, even with the minute's calls used up.
        reply = running.request("POST", f"/api/proposals/{proposal['id']}/decision",
                                {"approved": False, "sha256": digest(proposal["code"])})
        assert reply.status == 200
        said = [e.get("text", "") for e in running.events(first)]
        assert any("2 LLM calls in a minute is the limit" in str(t) for t in said), said
        assert len(server.chat_requests) == 2  # the third call never reached the model
        assert running.request("POST", "/api/turns", {"text": "four"}).status == 429
    finally:
        stop(running)


def test_there_is_no_way_to_change_settings(shared_served: Served) -> None:
    for path in ("/api/settings", "/settings", "/api/config"):
        assert shared_served.request("POST", path, {"approval": "auto"}).status in (404, 405)
        assert shared_served.request("GET", path).status in (404, 405)


def test_every_start_makes_a_new_token_and_the_old_one_stops_working(
        server: LLMServer, tmp_path: Path) -> None:
    first = serve(server, tmp_path)
    stop(first)
    token_file = first.data / "web-token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    second = serve(server, tmp_path)
    try:
        assert second.token != first.token
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert second.request("GET", "/api/conversations", token=first.token).status == 401
        assert second.request("GET", f"/?token={first.token}", token="").status == 401
        assert second.request("GET", "/api/conversations").status == 200
    finally:
        stop(second)


def test_a_kept_token_survives_a_restart_until_replaced(server: LLMServer,
                                                        tmp_path: Path) -> None:
    first = serve(server, tmp_path)
    stop(first)
    kept = serve(server, tmp_path, "--keep-token")
    stop(kept)
    by_config = serve(server, tmp_path, env={"ASSISTANT_SERVE_KEEP_TOKEN": "1"})
    stop(by_config)
    assert kept.token == first.token == by_config.token
    rotated = serve(server, tmp_path, "--keep-token", "--new-token")
    try:
        assert rotated.token != first.token
        assert rotated.request("GET", "/api/conversations", token=first.token).status == 401
    finally:
        stop(rotated)


def test_another_address_than_loopback_needs_tls() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "serve", "--host", "0.0.0.0", "--port", "0",
         "--model", "openai/x"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and not result.stdout
    assert "--tls-cert" in result.stderr and "0.0.0.0" in result.stderr
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "serve", "--host", "0.0.0.0", "--port", "0",
         "--tls-cert", "c.pem", "--tls-key", "k.pem", "--model", "openai/x"],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and "this machine's address" in result.stderr


def test_with_tls_it_serves_https_and_the_cookie_is_secure(server: LLMServer,
                                                           tmp_path: Path) -> None:
    import http.client
    import shutil
    import ssl

    from tests.support.require import require

    require(shutil.which("openssl"), "openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    running = serve(server, tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert running.url.startswith("https://127.0.0.1:")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        connection = http.client.HTTPSConnection("127.0.0.1", running.port, context=context,
                                                 timeout=30)
        connection.request("GET", f"/?token={running.token}")
        reply = connection.getresponse()
        assert reply.status == 303 and "Secure" in reply.getheader("set-cookie", "")
        connection.close()
        with pytest.raises((http.client.HTTPException, OSError)):  # no plain HTTP
            running.request("GET", "/api/conversations")
    finally:
        stop(running)
