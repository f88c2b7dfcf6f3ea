"""Desktop tasks: a real desktop per task, the programs it starts, and what they reported.

A task with a `desktop` section (benchmarks/tasks/README.md) runs on a display of its
own: Xvfb, openbox as the window manager, a private D-Bus session with the AT-SPI bus on
it (GTK programs publish their widgets there, as on a person's desktop), a local HTTP
server when the task has pages, and the task's programs, each started once its window
is up. The assistant under test gets DISPLAY and the session bus. When its turn ends,
`Desktop.finish()` reads what the programs reported: their exit status and output
(zenity and yad print the choice), the accessible tree of those asked for (the state of a
switch), and the forms posted to the server. Everything is stopped after each task, so
nothing of one task's desktop reaches the next.

    with Desktop(task["desktop"], folder, scratch) as desk:
        ...  # run the assistant with desk.env
        reports = desk.finish()
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
SCREEN = "1280x800x24"
WINDOW_WAIT_S = 60.0  # chromium on two busy cores takes a while to draw its first window
EXIT_GRACE_S = 1.5  # after the turn: a dialog answered just now is still closing
# Chromium as the task benchmark starts it: accessible to screen readers, quiet, and
# as root (in a container, say) without its sandbox, which needs a user namespace.
BROWSER = ("chromium", "--force-renderer-accessibility", "--disable-gpu",
           "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--disable-default-apps",
           "--disable-extensions", "--password-store=basic", "--disable-dev-shm-usage",
           "--window-position=0,0", "--window-size=1100,760")
PROGRAM_FIELDS = {"name": str, "run": list, "browser": str, "window": str, "tree": bool}
DESKTOP_FIELDS = {"start": list, "pages": dict}


class SpecError(ValueError):
    """A desktop section that does not follow the format; the message is one line."""


def spec_of(label: str, given: Any) -> dict[str, Any]:
    """The desktop section, checked: `start` (programs, each with a name, `run` or
    `browser`, and the title its window is waited for by) and `pages` (path -> HTML)."""
    if not isinstance(given, dict) or not isinstance(given.get("start"), list) \
            or not given["start"]:
        raise SpecError(f"{label}: desktop needs a `start` list of programs")
    typed(f"{label}: desktop", f"{label}: desktop.", given, DESKTOP_FIELDS)
    for path, html in given.get("pages", {}).items():
        if not str(path).startswith("/") or not isinstance(html, str):
            raise SpecError(f"{label}: desktop.pages maps a path starting with / to its HTML")
    for n, program in enumerate(given["start"]):
        program_of(f"{label}: desktop.start {n + 1}", program, given.get("pages", {}))
    if len({p["name"] for p in given["start"]}) != len(given["start"]):
        raise SpecError(f"{label}: desktop.start: each program needs a name of its own")
    return given


def typed(where: str, prefix: str, given: dict[str, Any], fields: dict[str, Any]) -> None:
    """Every field of `given` one of `fields`, of its type; `prefix` leads a wrong type's
    field name."""
    for key, value in given.items():
        if key not in fields:
            raise SpecError(f"{where}: unknown field {key!r} (allowed: {', '.join(fields)})")
        if not isinstance(value, fields[key]):
            raise SpecError(f"{prefix}{key} must be a {fields[key].__name__}")


def program_of(where: str, program: Any, pages: dict[str, str]) -> None:
    """One program of `start`, checked."""
    if not isinstance(program, dict):
        raise SpecError(f"{where} is not a mapping")
    typed(where, f"{where}: ", program, PROGRAM_FIELDS)
    if ("run" in program) == ("browser" in program):
        raise SpecError(f"{where}: give `run` (argv) or `browser` (a page's path), not both")
    for key in ("name", "window"):
        if key not in program:
            raise SpecError(f"{where}: missing field {key!r}")
    if program.get("browser") and program["browser"] not in pages:
        raise SpecError(f"{where}: browser opens {program['browser']!r}, not in pages")


def missing(spec: dict[str, Any]) -> str:
    """What this machine lacks for the task's desktop ("" when nothing)."""
    needed = ["Xvfb", "openbox", "dbus-daemon", "xdotool"]
    needed += ["chromium" if p.get("browser") else p["run"][0] for p in spec["start"]]
    lacking = [name for name in needed if shutil.which(name) is None]
    if not LAUNCHER.exists():
        lacking.append(str(LAUNCHER))
    return f"not installed: {', '.join(lacking)} (scripts/setup installs them)" if lacking else ""


@dataclass
class Reported:
    """What one program reported: its exit status (None: still running when the turn had
    ended, then stopped), what it printed, and its accessible tree if asked for."""

    status: int | None
    stdout: str
    tree: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Reports:
    """What a task's desktop reported once the turn was over."""

    programs: dict[str, Reported]
    posts: list[dict[str, Any]]


class Pages(ThreadingHTTPServer):
    """The task's pages on 127.0.0.1; every form posted to it is recorded."""

    def __init__(self, pages: dict[str, str]) -> None:
        self.pages = pages
        self.posts: list[dict[str, Any]] = []
        super().__init__(("127.0.0.1", 0), PageHandler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class PageHandler(BaseHTTPRequestHandler):
    server: Pages

    def do_GET(self) -> None:
        page = self.server.pages.get(urllib.parse.urlsplit(self.path).path)
        self.answer(200 if page is not None else 404, page or "<title>Not found</title>")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode(errors="replace")
        fields = {k: v[-1] for k, v in urllib.parse.parse_qs(body, keep_blank_values=True).items()}
        self.server.posts.append({"path": urllib.parse.urlsplit(self.path).path,
                                  "fields": fields})
        self.answer(200, "<title>Thanks</title><p>Received, thank you.</p>")

    def answer(self, status: int, html: str) -> None:
        data = f"<!doctype html><meta charset=utf-8>{html}".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


def free_display() -> int:
    for number in range(120, 400):
        taken = f"/tmp/.X11-unix/X{number}", f"/tmp/.X{number}-lock"
        if not any(Path(p).exists() for p in taken):
            return number
    raise RuntimeError("no free X display number between :120 and :399")


class Desktop:
    """One task's desktop, from its start to its last process stopped."""

    def __init__(self, spec: dict[str, Any], folder: Path, scratch: Path) -> None:
        self.spec, self.folder, self.home = spec, folder, scratch / "desktop"
        self.processes: list[subprocess.Popen[bytes]] = []  # stopped last first
        self.programs: dict[str, subprocess.Popen[bytes]] = {}
        self.pages: Pages | None = None
        self.env: dict[str, str] = {}  # what the assistant under test is given
        self.program_env: dict[str, str] = {}
        self.reports: Reports | None = None

    def __enter__(self) -> Desktop:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        for sub in ("run", "config", "cache", "data", "logs"):
            (self.home / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
        number = free_display()
        display = f":{number}"
        self.spawn("Xvfb", ["Xvfb", display, "-screen", "0", SCREEN, "-nolisten", "tcp"],
                   dict(os.environ))
        wait(lambda: xprop_root(display, "RESOURCE_MANAGER") is not None, "Xvfb to start", 10)
        bus = self.spawn("dbus", ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                         dict(os.environ), stdout=subprocess.PIPE)
        address = bus.stdout.readline().decode().strip() if bus.stdout else ""
        if not address:
            raise RuntimeError("dbus-daemon printed no address")
        self.env = {"DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": address}
        self.program_env = {
            **os.environ, **self.env, "NO_AT_BRIDGE": "0", "GNOME_ACCESSIBILITY": "1",
            "GTK_MODULES": "gail:atk-bridge", "GSETTINGS_BACKEND": "memory",
            "XDG_RUNTIME_DIR": str(self.home / "run"),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "XDG_CACHE_HOME": str(self.home / "cache"), "XDG_DATA_HOME": str(self.home / "data"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        }
        self.spawn("at-spi", [str(LAUNCHER), "--launch-immediately"], self.program_env)
        wait(lambda: owned(address, "org.a11y.Bus"), "the AT-SPI bus to start", 15)
        self.window_manager(display)
        if self.spec.get("pages"):
            self.pages = Pages(self.spec["pages"])
            threading.Thread(target=self.pages.serve_forever, daemon=True).start()
        for program in self.spec["start"]:
            self.launch(program)

    def window_manager(self, display: str, tries: int = 3) -> None:
        """openbox, once it manages the screen. Now and then it exits 1 at start without a
        word (seen on a busy machine, one start in ten); it is started again then."""
        for _ in range(tries):
            openbox = self.spawn("openbox", ["openbox"], self.program_env)
            wait(lambda wm=openbox: wm.poll() is not None or "window id" in (
                xprop_root(display, "_NET_SUPPORTING_WM_CHECK") or ""), "openbox to start", 15)
            if openbox.poll() is None:
                return
        raise RuntimeError(f"the desktop did not start: openbox exited {openbox.returncode} "
                           f"{tries} times: {self.log_tail('openbox')}")

    def launch(self, program: dict[str, Any]) -> None:
        """Start one program in the task's folder and wait for its window's title."""
        if program.get("browser"):
            assert self.pages is not None
            profile = self.home / f"browser-{program['name']}"
            argv = [*BROWSER, *(["--no-sandbox"] if os.geteuid() == 0 else []),
                    f"--user-data-dir={profile}", f"{self.pages.url}{program['browser']}"]
        else:
            argv = [str(a).replace("{folder}", str(self.folder)) for a in program["run"]]
        out = self.home / "logs" / f"{program['name']}.out"
        with open(out, "wb") as stdout:
            process = self.spawn(program["name"], argv, self.program_env, stdout=stdout,
                                 cwd=self.folder)
        self.programs[program["name"]] = process
        wait(lambda: process.poll() is not None or self.window(program["window"]),
             f"the window {program['window']!r} of {program['name']}", WINDOW_WAIT_S)
        if process.poll() is not None:
            raise RuntimeError(f"{program['name']} exited {process.returncode} at start: "
                               + self.log_tail(program["name"]))
        time.sleep(0.5)  # a window mapped is not yet drawn, nor its widgets published

    def window(self, title: str) -> bool:
        """Whether a visible window's title matches `title` (a regular expression)."""
        done = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                              env=self.program_env, capture_output=True, text=True,
                              timeout=15, check=False)
        return bool(done.stdout.strip())

    def spawn(self, name: str, argv: list[str], env: dict[str, str], stdout: Any = None,
              cwd: Path | None = None) -> subprocess.Popen[bytes]:
        log = self.home / "logs" / f"{name}.err"
        with open(log, "ab") as err:
            process = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                       stdout=stdout or subprocess.DEVNULL, stderr=err,
                                       start_new_session=True)
        self.processes.append(process)
        return process

    def log_tail(self, name: str) -> str:
        path = self.home / "logs" / f"{name}.err"
        text = path.read_text(errors="replace").strip() if path.exists() else ""
        return " ".join(text.splitlines()[-2:])[:300]

    def finish(self) -> Reports:
        """What the programs reported after the turn: the trees asked for (read while
        they run), then each one's exit status and output; the ones still running are
        stopped. Called once; later calls return the same."""
        if self.reports is not None:
            return self.reports
        trees = {p["name"]: self.tree(self.programs[p["name"]].pid)
                 for p in self.spec["start"] if p.get("tree")}
        wait(lambda: all(p.poll() is not None for p in self.programs.values()), "", EXIT_GRACE_S,
             fail=False)
        status = {name: p.poll() for name, p in self.programs.items()}
        for process in self.programs.values():
            end(process)
        self.reports = Reports(
            {name: Reported(status[name],
                            (self.home / "logs" / f"{name}.out").read_text(errors="replace"),
                            trees.get(name, []))
             for name in self.programs},
            list(self.pages.posts) if self.pages else [])
        return self.reports

    def tree(self, pid: int) -> list[dict[str, Any]]:
        """The accessible tree of the program with this pid, read by a process of its own
        on the task's bus (AT-SPI binds to the bus it first sees)."""
        done = subprocess.run([sys.executable, __file__, "--tree", str(pid)],
                              env=self.program_env, capture_output=True, text=True,
                              timeout=60, check=False)
        try:
            return list(json.loads(done.stdout))
        except ValueError:
            return [{"role": "error", "name": done.stderr.strip()[-300:], "states": []}]

    def stop(self) -> None:
        if self.pages is not None:
            self.pages.shutdown()
            self.pages.server_close()
        for process in reversed(self.processes):
            end(process)


def by_hand(name: str, done: dict[str, Any], folder: Path, env: dict[str, str]) -> str:
    """Do a self-test's attempt on the desktop: its `code` runs with `folder` and
    `xdotool(*args)` (on the task's display, a short pause after each); its answer."""
    def xdotool(*args: object) -> str:
        ran = subprocess.run(["xdotool", *map(str, args)], env={**os.environ, **env},
                             capture_output=True, text=True, timeout=30, check=True)
        time.sleep(0.4)
        return ran.stdout.strip()

    scope: dict[str, Any] = {"folder": folder, "xdotool": xdotool}
    if "code" in done:
        exec(compile(done["code"], f"<{name}>", "exec"), scope)
    return str(done.get("answer", scope.get("answer", "")))


def end(process: subprocess.Popen[Any]) -> None:
    """Stop a process and the group it leads (a browser's helpers too)."""
    if process.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)  # helpers left behind by a leader that ended
    if process.stdout:
        process.stdout.close()


def wait(check: Any, what: str, timeout: float, fail: bool = True) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            if fail:
                raise RuntimeError(f"the desktop did not start: no {what} within {timeout:g} s")
            return
        time.sleep(0.1)


def owned(address: str, name: str) -> bool:
    done = subprocess.run(["dbus-send", f"--bus={address}", "--print-reply",
                           "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                           "org.freedesktop.DBus.NameHasOwner", f"string:{name}"],
                          capture_output=True, text=True, timeout=10, check=False)
    return "boolean true" in done.stdout


def xprop_root(display: str, atom: str) -> str | None:
    """The root window's property `atom` as xprop prints it; None while X does not answer."""
    done = subprocess.run(["xprop", "-root", atom], env={**os.environ, "DISPLAY": display},
                          capture_output=True, text=True, timeout=10, check=False)
    return done.stdout if done.returncode == 0 else None


def read_tree(pid: int, limit: int = 6000) -> list[dict[str, Any]]:
    """Every accessible node of the application with this pid: role, name, states and,
    for text, its text."""
    import gi

    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi

    Atspi.init()
    desktop = Atspi.get_desktop(0)
    apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
    found: list[dict[str, Any]] = []
    stack = [a for a in apps if a is not None and a.get_process_id() == pid]
    while stack and len(found) < limit:
        node = stack.pop()
        try:
            states = [Atspi.StateType(s).value_nick for s in node.get_state_set().get_states()]
            entry = {"role": node.get_role_name(), "name": node.get_name() or "",
                     "states": states}
            text = node.get_text_iface()
            if text is not None:
                entry["text"] = Atspi.Text.get_text(text, 0, Atspi.Text.get_character_count(text))
            found.append(entry)
            stack.extend(reversed([node.get_child_at_index(i)
                                   for i in range(node.get_child_count())]))
        except Exception:  # a node gone while it was read: the rest is still the tree
            continue
    return found


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--tree":
        print(json.dumps(read_tree(int(sys.argv[2]))))
    else:
        sys.exit("usage: desktop.py --tree PID")
