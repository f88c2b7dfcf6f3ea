"""Every request passes here first: Host, Origin, then the token; no CORS, ever.

- Host must name this machine (127.0.0.1, localhost, ::1) or the address bound: a page
  on another site that rebinds its DNS name to 127.0.0.1 is refused.
- A request that carries an Origin must come from this server's own origin, and a
  state-changing request from a browser (authenticated by the cookie) must carry one.
  No Access-Control-* header is ever sent, so other sites cannot read any answer.
- The token comes as `Authorization: Bearer`, or as the HttpOnly SameSite=Strict cookie
  set when `/?token=` is opened (which then redirects, so the token leaves the address bar).
  The cookie is named after the port the request reached (`assistant_token_8421`):
  browsers share cookies between the ports of one host, and a server on another port
  never reads it as its own.

The kind of caller is left in the scope: "page" (the cookie) or "api" (the bearer
header); only the page can give a person's approval of high-risk code.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.web.token import TokenFile

COOKIE = "assistant_token_{port}"
CALLER = "assistant.caller"  # the scope key: "page" or "api"
SAFE_METHODS = ("GET", "HEAD")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
     b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


def host_name(host: str) -> str:
    """The name part of a Host header or netloc: no port, no IPv6 brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """ASGI middleware in front of the whole app (pages, assets and API alike)."""

    def __init__(self, app: ASGIApp, *, token: TokenFile, hosts: Iterable[str],
                 tls: bool = False) -> None:
        self.app = app
        self.token = token
        self.hosts = {host_name(h) for h in (*LOOPBACK_NAMES, *hosts)}
        self.tls = tls

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        response = self._check(scope, Headers(scope=scope))
        send = _with_headers(send)
        if response is not None:
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _check(self, scope: Scope, headers: Headers) -> Response | None:
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return _refuse(400, "this server answers only to its own address (Host)")
        origin = headers.get("origin")
        scheme = "https" if self.tls else "http"
        if origin is not None and origin != f"{scheme}://{host}":
            return _refuse(403, "requests from other sites are refused (Origin)")
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return _refuse(403, "requests from other sites are refused (Sec-Fetch-Site)")
        query = parse_qs(scope.get("query_string", b"").decode(errors="replace"))
        if scope["path"] == "/" and "token" in query:
            return self._open_with_token(query["token"][0], cookie_name(scope))
        authorization = headers.get("authorization", "")
        if authorization.lower().startswith("bearer "):
            caller, offered = "api", authorization[7:].strip()
        else:
            caller, offered = "page", _cookie(headers.get("cookie", ""), cookie_name(scope))
        if not self.token.matches(offered):
            return _refuse(401, "a valid token is needed: open the URL `assistant serve` "
                                "printed, or send Authorization: Bearer TOKEN")
        method = scope.get("method", "GET")
        if caller == "page" and method not in SAFE_METHODS and origin is None:
            return _refuse(403, "a browser request that changes something must name its Origin")
        scope[CALLER] = caller
        return None

    def _open_with_token(self, offered: str, cookie: str) -> Response:
        if not self.token.matches(offered):
            return _refuse(401, "this token is not (or no longer) valid: open the URL "
                                "`assistant serve` printed last")
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(cookie, offered, httponly=True, samesite="strict", secure=self.tls,
                            path="/")
        return response


def cookie_name(scope: Scope) -> str:
    """The page's cookie on the port this request reached."""
    server = scope.get("server") or ("", 0)
    return COOKIE.format(port=server[1])


def _cookie(header: str, wanted: str) -> str:
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == wanted:
            return value
    return ""


def _refuse(status: int, why: str) -> Response:
    return JSONResponse({"error": why}, status_code=status)


def _with_headers(send: Send) -> Send:
    """`send`, adding the security headers to every response start."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
        await send(message)

    return sending


def is_loopback(host: str) -> bool:
    """Whether binding to `host` keeps the server on this machine."""
    import ipaddress

    name = host_name(host) if not host.startswith("[") else host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
