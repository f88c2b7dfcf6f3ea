"""A page with a form on 127.0.0.1, and what the browser posts to it.

    with FormServer(PAGE) as site:
        ...                                  # a browser opens site.url and submits
        assert site.posted(timeout=10) == {"email": "ana@example.org", ...}

The form must post to /posted; each post is kept as its fields (a field sent twice keeps
its last value) and answered with a page titled "Thanks".
"""

from __future__ import annotations

import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

THANKS = b"<!doctype html><title>Thanks</title><p>Thanks, you are subscribed.</p>"


class FormServer:
    """Serves one page at / and keeps what is posted to /posted."""

    def __init__(self, page: str) -> None:
        self.page = page.encode()
        self.posts: queue.Queue[dict[str, str]] = queue.Queue()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._answer(server.page)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length).decode()
                server.posts.put(dict(parse_qsl(body, keep_blank_values=True)))
                self._answer(THANKS)

            def _answer(self, body: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def __enter__(self) -> FormServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.http.shutdown()
        self.http.server_close()

    def posted(self, timeout: float = 10.0) -> dict[str, str]:
        """The next post's fields; fails when none comes within `timeout` seconds."""
        try:
            return self.posts.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"nothing was posted within {timeout} s") from None
