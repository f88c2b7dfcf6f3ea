"""Runs Python code for the host, keeping one `__main__` namespace alive between runs.

Requests arrive as JSON lines ({"token", "code"}) on the pipe whose fd is argv[1],
so stdin stays the program's own. A request with a "whatif" plan runs in a fork of
this process inside a what-if world instead, and leaves this one as it was. After each
run the driver writes the token and the exit status, then ";", to stdout and to
stderr: that is how the host knows the run is over. SIGINT becomes KeyboardInterrupt
only while user code runs, so an interrupt that lands between runs cannot break the
protocol.

A run ends when its code does: the threads, timers and exit hooks it leaves behind would
act later in this live process, unpreviewed and unasked. A preview lists them as what it
could not cover; after a real run they are stopped, and the run's output says which.
"""

import ast
import atexit
import contextlib
import ctypes
import importlib
import json
import linecache
import os
import signal
import sys
import sysconfig
import threading
import traceback
import types
from pathlib import Path

_running = False
# A failure inside `computer` is told at the run's own line: its frames are not the
# code's, and a small model reads the last lines of a traceback first.
_COMPUTER = str(Path(__file__).resolve().parents[2] / "computer") + os.sep
# Standard modules small models use without importing them ("NameError: name 'os' is not
# defined", then the same code again); all light, most already loaded by this driver.
PRELUDE = ("os", "sys", "re", "json", "csv", "glob", "shutil", "subprocess", "math", "time")
OWN = str(Path(__file__).resolve().parents[2])
"""The assistant's package: threads its own modules start (the desktop's) are not a run's."""
_hooks: list[object] = []  # every exit hook registered since the runtime started
_register = atexit.register


LIBRARIES = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib")} | {OWN})
"""Where the modules live whose own exit hooks are housekeeping, not a run's (logging
registers logging.shutdown when it is first imported)."""


def _recording(func: object, *args: object, **kwargs: object) -> object:
    """atexit.register, remembered when a run's code calls it: an exit hook is code a run
    leaves to run later. A library registering its own at import is not the run's."""
    caller = sys._getframe(1).f_code.co_filename
    if not caller.startswith(LIBRARIES):
        _hooks.append(func)
    return _register(func, *args, **kwargs)  # type: ignore[arg-type]


atexit.register = _recording  # type: ignore[assignment]


def _snapshot() -> tuple[set[threading.Thread], int]:
    return set(threading.enumerate()), len(_hooks)


def _leftovers(before: tuple[set[threading.Thread], int]
               ) -> tuple[list[threading.Thread], list[object]]:
    """The threads (and timers) a run started that still live, and its exit hooks."""
    threads = [t for t in threading.enumerate()
               if t not in before[0] and t.is_alive() and not _own(t)]
    return threads, _hooks[before[1]:]


def _own(thread: threading.Thread) -> bool:
    target = getattr(thread, "function", None) or getattr(thread, "_target", None)
    code = getattr(target, "__code__", None)
    where = code.co_filename if code is not None else (
        getattr(sys.modules.get(type(thread).__module__), "__file__", "") or "")
    return where.startswith(OWN)


def _named(threads: list[threading.Thread], hooks: list[object]) -> list[str]:
    def called(func: object) -> str:
        module = getattr(func, "__module__", "") or ""
        name = getattr(func, "__qualname__", "") or type(func).__name__
        return f"{module}.{name}" if module and module != "__main__" else name

    def thread(t: threading.Thread) -> str:
        target = getattr(t, "_target", None)
        return f"a thread ({called(target) if target else t.name})"

    said = [f"a timer ({called(t.function)})" if isinstance(t, threading.Timer) else thread(t)
            for t in threads]
    return said + [f"an exit hook ({called(h)})" for h in hooks]


def _stop(threads: list[threading.Thread], hooks: list[object]) -> None:
    """Cancel timers, end threads at their next Python line, unregister exit hooks."""
    for hook in hooks:
        atexit.unregister(hook)  # type: ignore[arg-type]
        _hooks.remove(hook)
    for thread in threads:
        if isinstance(thread, threading.Timer):
            thread.cancel()
        elif thread.ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                       ctypes.py_object(SystemExit))


def _on_sigint(signum: int, frame: types.FrameType | None) -> None:
    """Interrupt user code, never the driver itself (including _execute's own frame)."""
    if _running and frame is not None and frame.f_code is not _execute.__code__:
        raise KeyboardInterrupt


def _execute(code: str, filename: str, namespace: dict[str, object]) -> int:
    """Run one request and return its exit status, printing errors as Python would; the
    value of a last bare expression is printed (its repr, unless None), as Jupyter shows
    it: `computer.screen()` alone on its line is read, not lost."""
    global _running
    try:
        body, last = _split(code, filename)
        _running = True
        exec(body, namespace)
        if last is not None:
            value = eval(last, namespace)
            if value is not None:
                print(repr(value))
        _running = False
        return 0
    except BaseException as exc:
        _running = False
        return _report(exc)


def _split(code: str, filename: str) -> tuple[types.CodeType, types.CodeType | None]:
    """The code to run, and its last statement apart when it is an expression."""
    tree = ast.parse(code, filename)
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return compile(tree, filename, "exec"), None
    statement = tree.body.pop()
    assert isinstance(statement, ast.Expr)
    last = ast.Expression(statement.value)
    return compile(tree, filename, "exec"), compile(last, filename, "eval")


def _trim(report: traceback.TracebackException) -> None:
    """Only the code's own frames, in the exception and in those it was raised from."""
    seen: set[int] = set()
    while report is not None and id(report) not in seen:
        seen.add(id(report))
        user_frames = [frame for frame in report.stack if frame.filename != __file__
                       and not frame.filename.startswith(_COMPUTER)]
        report.stack = traceback.StackSummary.from_list(user_frames)
        if report.__cause__ is not None:
            _trim(report.__cause__)
        report = report.__context__  # type: ignore[assignment]


def _report(exc: BaseException) -> int:
    if isinstance(exc, SystemExit):
        if exc.code is None:
            return 0
        if isinstance(exc.code, int):
            return exc.code
        print(exc.code, file=sys.stderr)
        return 1
    report = traceback.TracebackException.from_exception(exc)
    _trim(report)
    print("".join(report.format()), end="", file=sys.stderr)
    return 130 if isinstance(exc, KeyboardInterrupt) else 1


def _preview(code: str, filename: str, namespace: dict[str, object],
             plan: dict[str, object]) -> int:
    """Run one request in a what-if world (assistant/whatif), in a fork of this process:
    Python code sees every variable a real run would, and nothing it does reaches back.
    A plan with an "argv" runs that command there instead (shell or JavaScript, once).
    The plan names the module that makes the world, so the runtime does not depend on it;
    it is imported here, so that the next fork finds it imported."""
    world = importlib.import_module(str(plan["world"]))

    _flush()
    pid = os.fork()
    if pid == 0:
        status = 125
        try:
            place = world.enter(plan, namespace)
            argv = plan.get("argv")
            later: list[str] = []
            if isinstance(argv, list):
                status = world.run_command(argv)
            else:
                world.renames_across_layers()
                before = _snapshot()
                status = _execute(code, filename, namespace)
                left = _leftovers(before)
                later = _named(*left)
                _stop(*left)  # they would act in the world while it is surveyed
            _flush()
            place.finish(status, later)
        except BaseException as exc:  # the fork must never return to the loop
            print(f"[the preview could not start: {exc}]", file=sys.stderr)
        finally:
            _flush()
            os._exit(status & 0xFF)
    _, waited = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(waited)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]  # None is caught like any failure


def _finish(token: str, status: int) -> None:
    _flush()
    marker = f"{token}{status};".encode()
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            os.write(fd, marker)


def main() -> None:
    control = os.fdopen(int(sys.argv[1]), "rb")
    os.set_inheritable(control.fileno(), False)
    sys.argv = [""]
    sys.path[0] = ""
    project = str(Path(__file__).resolve().parents[3])
    if project not in sys.path:
        sys.path.append(project)
    module = types.ModuleType("__main__")
    sys.modules["__main__"] = module
    module.__dict__.update({name: importlib.import_module(name) for name in PRELUDE})
    module.__dict__["Path"] = Path
    with contextlib.suppress(ImportError):  # light: its desktop libraries load on first use
        from assistant import computer

        module.__dict__["computer"] = computer
        # `import computer` is what models write: it is this one, not a PyPI package
        # they then try to install.
        sys.modules.setdefault("computer", computer)
    signal.signal(signal.SIGINT, _on_sigint)
    for number, line in enumerate(control, start=1):
        request = json.loads(line)
        code = request["code"]
        filename = f"<run {number}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        if sys.stdin is None or sys.stdin.closed:
            sys.stdin = open(0, closefd=False)  # noqa: SIM115 - fd 0 lives as long as the runtime
        plan = request.get("whatif")
        if plan:
            status = _preview(code, filename, module.__dict__, plan)
        else:
            before = _snapshot()
            status = _execute(code, filename, module.__dict__)
            left = _leftovers(before)
            if left[0] or left[1]:
                print(f"[stopped what the run left to run later: {', '.join(_named(*left))};"
                      " a run ends when its code does]", file=sys.stderr)
                _stop(*left)
        signal.signal(signal.SIGINT, _on_sigint)  # user code may have replaced it
        _finish(request["token"], status)


if __name__ == "__main__":
    main()
