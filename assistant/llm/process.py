"""litellm in a process of its own, for a program that waits a long time between turns.

Imported, litellm and the OpenAI client hold about 170 MB for as long as the process
lives, and take seconds to import. A daemon that holds them only while it is used starts
this process ahead of need (`warm_up`, at the hotkey), and lets it end after `keep_alive`
seconds without a request; the next request starts it again.

The protocol is one JSON object a line. The parent sends {"id", "call", "args"} or
{"id", "stop"}; the child answers each id with {"record"} items and an {"end"}, or one
{"result"}, or a {"failure": [kind, status, detail]} already classified by llm/errors.py.
It writes nothing else on that pipe (stray prints go to its stderr), reads calls only
once litellm is loaded, and ends when its stdin closes. A child that dies fails the calls
waiting on it with one line: its exit status and the last line it wrote.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from assistant.llm import errors
from assistant.llm.backend import InProcess, Record

STOP_WAIT_S = 5.0


class ProcessGone(Exception):
    """The child ended (or never started) while a call waited on it."""


class LLMProcess:
    """A Backend whose litellm runs in a child process, started on demand."""

    def __init__(self, keep_alive: float = 300.0,
                 log: Callable[[str], None] | None = None) -> None:
        """`keep_alive`: seconds without a request before the child ends (0: never)."""
        self.keep_alive = keep_alive
        self._log = log or (lambda _line: None)
        self._lock = threading.Lock()
        self._child: _Child | None = None
        self._active = 0
        self._last = time.monotonic()
        self._timer: threading.Timer | None = None
        self.on_stop: Callable[[], None] | None = None  # called after an idle stop

    @property
    def pid(self) -> int | None:
        """The running child's process id, if there is one."""
        child = self._child
        return child.process.pid if child is not None and child.alive else None

    def warm_up(self) -> None:
        """Start the child if it is not running, and wait until it has loaded litellm
        (seconds: call it off the thread that must stay responsive)."""
        self._ask_or("knows", False, model="")

    def close(self) -> None:
        """End the child (calls still waiting fail); a later call starts a new one."""
        with self._lock:
            child, self._child = self._child, None
            if self._timer is not None:
                self._timer.cancel()
        if child is not None:
            child.end()

    # Backend.

    def reply(self, request: dict[str, Any],
              should_stop: Callable[[], bool] | None = None) -> _RemoteReply:
        return _RemoteReply(self, request)

    def count_tokens(self, model: str, messages: list[dict[str, Any]]) -> int:
        return int(self._ask("count_tokens", model=model, messages=messages))

    def supports(self, feature: str, model: str) -> bool:
        return bool(self._ask_or("supports", False, feature=feature, model=model))

    def max_input_tokens(self, model: str) -> int | None:
        value = self._ask_or("max_input_tokens", None, model=model)
        return value if isinstance(value, int) else None

    def provider(self, model: str) -> tuple[str, str | None]:
        """Asked for an error's message: a child that died is not started again for it."""
        if self.pid is None:
            return "openai", None
        provider, base = self._ask_or("provider", ["openai", None], model=model)
        return str(provider), base

    def knows(self, model: str) -> bool:
        return bool(self._ask_or("knows", False, model=model))

    # Calls.

    def _ask(self, call: str, **args: Any) -> Any:
        with self._session(call, args) as answers:
            return _result(next(answers))

    def _ask_or(self, call: str, default: Any, **args: Any) -> Any:
        """The answer, or `default` when the child cannot give one (the reply that
        follows reports the reason)."""
        try:
            return self._ask(call, **args)
        except (ProcessGone, errors.Failed):
            return default

    def _session(self, call: str, args: dict[str, Any]) -> _Session:
        with self._lock:
            child = self._running()
            self._active += 1
        return _Session(self, child, call, args)

    def _done(self) -> None:
        with self._lock:
            self._active -= 1
            self._last = time.monotonic()
            self._arm()

    def _running(self) -> _Child:
        """The live child, started if needed (call with the lock held)."""
        if self._child is None or not self._child.alive:
            self._child = _Child.start()
            self._log(f"LLM client process started (pid {self._child.process.pid})")
        return self._child

    def _arm(self) -> None:
        """(Re)start the countdown to the idle stop (call with the lock held)."""
        if self._timer is not None:
            self._timer.cancel()
        if self.keep_alive > 0:
            self._timer = threading.Timer(self.keep_alive, self._stop_if_idle)
            self._timer.daemon = True
            self._timer.start()

    def _stop_if_idle(self) -> None:
        with self._lock:
            idle = time.monotonic() - self._last
            if self._active or self._child is None or idle < self.keep_alive - 0.05:
                return
            child, self._child = self._child, None
        child.end()
        self._log(f"LLM client process stopped after {idle:.0f} s idle")
        if self.on_stop is not None:
            self.on_stop()


def _result(message: dict[str, Any]) -> Any:
    """The value of a {"result"} answer; a {"failure"} raised as errors.Failed."""
    if "failure" in message:
        raise errors.Failed(errors.Failure(*message["failure"]))
    return message.get("result")


class _Session:
    """One call in flight: its answers, in order, until its last; then the backend is told."""

    def __init__(self, owner: LLMProcess, child: _Child, call: str,
                 args: dict[str, Any]) -> None:
        self._owner = owner
        self.child = child
        self.ident, self._answers = child.open()
        self._closed = False
        try:
            child.send({"id": self.ident, "call": call, "args": args})
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Iterator[dict[str, Any]]:
        return self.answers()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def answers(self) -> Iterator[dict[str, Any]]:
        while True:
            message = self._answers.get()
            if "gone" in message:
                raise ProcessGone(message["gone"])
            yield message

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.child.forget(self.ident)
            self._owner._done()


class _RemoteReply:
    """A reply streamed by the child; close() asks it to stop the server generating."""

    def __init__(self, owner: LLMProcess, request: dict[str, Any]) -> None:
        self._owner = owner
        self._request = request
        self._session: _Session | None = None

    def __iter__(self) -> Iterator[Record]:
        session = self._session = self._owner._session("reply", {"request": self._request})
        with session as answers:
            for message in answers:
                if "record" in message:
                    kind, value = message["record"]
                    yield kind, value
                elif "end" in message:
                    return
                else:
                    _result(message)
                    return

    def close(self) -> None:
        session = self._session
        if session is not None:
            session.child.send_quietly({"id": session.ident, "stop": True})


class _Child:
    """The running child process, the reader of its answers and of its last words."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._queues: dict[int, queue.SimpleQueue[dict[str, Any]]] = {}
        self._ids = 0
        self._lock = threading.Lock()  # the queues and `_gone`
        self._writing = threading.Lock()
        self._gone = ""
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._read, name="llm-process", daemon=True).start()
        threading.Thread(target=self._read_stderr, name="llm-process-err", daemon=True).start()

    @classmethod
    def start(cls) -> _Child:
        """A new child; a start that fails (the kernel can refuse a process start under
        load, EFAULT or EAGAIN) fails this call like a child that died, and the next call
        tries again."""
        try:
            process = subprocess.Popen([sys.executable, "-m", "assistant.llm.process"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise ProcessGone(f"the LLM client process did not start ({exc.strerror or exc}); "
                              "the next request starts it again") from None
        return cls(process)

    @property
    def alive(self) -> bool:
        return not self._gone

    def open(self) -> tuple[int, queue.SimpleQueue[dict[str, Any]]]:
        answers: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        with self._lock:
            self._ids += 1
            self._queues[self._ids] = answers
            if self._gone:
                answers.put({"gone": self._gone})
            return self._ids, answers

    def forget(self, ident: int) -> None:
        with self._lock:
            self._queues.pop(ident, None)

    def send(self, message: dict[str, Any]) -> None:
        line = (json.dumps(message, default=str) + "\n").encode()
        assert self.process.stdin is not None
        with self._writing:
            if self._gone:
                raise ProcessGone(self._gone)
            try:
                self.process.stdin.write(line)
                self.process.stdin.flush()
            except OSError:
                raise ProcessGone(self._reason()) from None

    def send_quietly(self, message: dict[str, Any]) -> None:
        try:
            self.send(message)
        except ProcessGone:
            return

    def end(self) -> None:
        """Close its stdin (it ends by itself), then terminate or kill if it does not."""
        with self._writing:
            self._gone = self._gone or "the LLM client process was stopped"
            try:
                if self.process.stdin is not None:
                    self.process.stdin.close()
            except OSError:
                pass
        for finish in (self.process.terminate, self.process.kill):
            try:
                self.process.wait(STOP_WAIT_S)
                return
            except subprocess.TimeoutExpired:
                finish()
        self.process.wait()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            with self._lock:
                answers = self._queues.get(message.get("id", 0))
            if answers is not None:
                answers.put(message)
        self.process.wait()
        with self._lock:
            self._gone = self._gone or self._reason()
            waiting = list(self._queues.values())
        for answers in waiting:
            answers.put({"gone": self._gone})

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            text = line.decode(errors="replace").strip()
            if text:
                self._stderr.append(text)

    def _reason(self) -> str:
        status = self.process.poll()
        last = self._stderr[-1] if self._stderr else "no message"
        ended = f"ended (exit {status})" if status is not None else "stopped answering"
        return f"the LLM client process {ended}: {last}"


# The child.

def _serve_call(backend: InProcess, call: str, args: dict[str, Any]) -> Any:
    if call == "count_tokens":
        return backend.count_tokens(args["model"], args["messages"])
    if call == "supports":
        return backend.supports(args["feature"], args["model"])
    if call == "max_input_tokens":
        return backend.max_input_tokens(args["model"])
    if call == "provider":
        return list(backend.provider(args["model"]))
    if call == "knows":
        return backend.knows(args["model"])
    raise ValueError(f"unknown call {call!r}")


def main() -> None:
    """The child: answer calls from stdin until it closes."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # what litellm prints reaches stderr, never the protocol
    sys.stdout = sys.stderr
    backend = InProcess()
    backend.warm_up()
    writing = threading.Lock()
    streams: dict[int, Any] = {}

    def send(message: dict[str, Any]) -> None:
        with writing:
            channel.write(json.dumps(message, default=str) + "\n")
            channel.flush()

    def serve(ident: int, call: str, args: dict[str, Any]) -> None:
        try:
            if call == "reply":
                stop = threading.Event()
                stream = streams[ident] = (stop, backend.reply(args["request"], stop.is_set))
                for record in stream[1]:
                    send({"id": ident, "record": list(record)})
                send({"id": ident, "end": True})
            else:
                send({"id": ident, "result": _serve_call(backend, call, args)})
        except Exception as exc:
            failure = errors.classify(exc)
            send({"id": ident, "failure": [failure.kind, failure.status, failure.detail]})
        finally:
            streams.pop(ident, None)

    for line in sys.stdin:
        message = json.loads(line)
        ident = message["id"]
        if message.get("stop"):
            if ident in streams:
                stop, stream = streams[ident]
                stop.set()
                stream.close()
            continue
        threading.Thread(target=serve, args=(ident, message["call"], message["args"]),
                         daemon=True).start()


if __name__ == "__main__":
    main()
