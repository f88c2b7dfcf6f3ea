"""Risk rules for Python, read from its syntax tree: calls are judged by what they resolve to
(`import shutil as s; s.rmtree` is `shutil.rmtree`) and by the paths they are given."""

from __future__ import annotations

import ast
import contextlib
import re
import shlex
from typing import TypeGuard

from assistant.safety import desktop, paths, shell_risk
from assistant.safety.files import delete_findings, each_named, moved_away, write_findings
from assistant.safety.findings import Finding, Level, Scope
from assistant.safety.python_decode import DECODED
from assistant.safety.python_values import Values

UNKNOWN = paths.UNKNOWN
SHELL_CALLS = {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput",
               "pty.spawn", "commands.getoutput"}
PROCESS_CALLS = {"subprocess.run", "subprocess.call", "subprocess.check_call",
                 "subprocess.check_output", "subprocess.Popen", "asyncio.create_subprocess_exec",
                 "asyncio.create_subprocess_shell", "os.execv", "os.execvp", "os.execl",
                 "os.execlp", "os.spawnl", "os.spawnlp", "os.spawnv", "os.spawnvp",
                 "os.posix_spawn", "os.posix_spawnp"}
DELETE = {"os.remove", "os.unlink", "os.rmdir", "os.removedirs", "pathlib.Path.unlink"}
DECODERS = {"base64.b64decode", "base64.b32decode", "base64.b16decode", "base64.a85decode",
            "base64.b85decode", "base64.decodebytes", "codecs.decode", "bytes.fromhex",
            "zlib.decompress", "bz2.decompress", "lzma.decompress", "gzip.decompress",
            "marshal.loads", "binascii.unhexlify", "binascii.a2b_base64"}
NETWORK_PREFIXES = ("requests.", "httpx.", "urllib.request.", "urllib3.", "http.client.",
                    "aiohttp.", "smtplib.", "ftplib.", "paramiko.", "socket.", "telnetlib.",
                    "xmlrpc.client.", "websocket.", "pycurl.")
FETCH = ("requests.get", "requests.request", "httpx.get", "urllib.request.urlopen",
         "urllib.request.urlretrieve", "urllib3.request")
RUNNERS = {"exec", "eval", "compile", "builtins.exec", "builtins.eval", "pickle.loads",
           "marshal.loads", "runpy.run_path", "types.FunctionType"}
ACTING = {"shutil.rmtree", "send2trash.send2trash", "shutil.move", "os.rename", "os.replace",
          "os.truncate", "os.chmod", "os.kill", "os.killpg", "shutil.copy", "shutil.copyfile",
          "shutil.copytree", "os.symlink"}
"""Functions that act when called: passed as a value, they are judged as called."""
SPAWNERS = {"os.fork", "os.forkpty", "multiprocessing.Process", "subprocess.Popen", "pty.fork"}
# Calls that only look at a path, so naming a key file there reads nothing.
LOOKS = {"os.path.exists", "os.path.isfile", "os.path.isdir", "os.listdir", "os.stat",
         "os.path.getsize", "os.path.getmtime", "print", "os.path.join", "os.path.expanduser",
         "pathlib.Path", "os.scandir", "os.walk", "glob.glob"}
WRITE_METHODS = {"write_text", "write_bytes", "touch", "symlink_to", "hardlink_to", "mkdir"}
SENDS = {"post", "put", "patch", "sendall", "send", "sendto", "sendmail", "send_message",
         "storbinary", "storlines", "upload_file", "upload_fileobj", "put_object", "sendfile"}
"""Methods that carry data out over a connection (a GET only fetches)."""
OWN_SECRETS = ("assistant.safety.keys.", "assistant.web.token.", "keyring.get",
               "keyring.core.get", "secretstorage.")
"""The assistant's own keyring entries and web token, and the keyring itself."""
POWER = {"Reboot", "PowerOff", "Halt", "Suspend", "Hibernate", "reboot", "poweroff"}


class _Reader(Values):
    """What the code does: files, processes, network, secrets, as its calls show."""

    def __init__(self, code: str, scope: Scope) -> None:
        super().__init__(code)
        self.scope = scope
        self.protected = scope.protected
        self.found: list[Finding] = []
        self.secret_read = ""
        self.env_dump = ""
        self.network = ""
        self.loops: list[ast.AST] = []
        self.downloaded: set[str] = set()
        self.personal_read = ""  # a file of the user's home read (sent away, it is theirs)
        self.sent = ""  # a call that sends data out
        self.fetched = False  # something was fetched from the network
        self.filters = 0  # `if` statements around the code being read
        self.cwd = scope.cwd  # the folder after os.chdir ("" = where the run started)
        self.typist = desktop.Typist()
        self.wrote = False  # some file is written (a dump of the environment is kept)

    def add(self, family: str, level: Level, node: ast.AST, why: str) -> None:
        self.found.append(Finding(family, level, self.part(node), why))

    # -- visiting ---------------------------------------------------------------------
    def visit_While(self, node: ast.While) -> None:
        forever = isinstance(node.test, ast.Constant) and bool(node.test.value)
        self.loops.append(node if forever else ast.Pass())
        self.generic_visit(node)
        self.loops.pop()

    def visit_For(self, node: ast.For) -> None:
        if "process_iter" in self.qualname(getattr(node.iter, "func", node.iter)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and \
                        inner.func.attr in ("kill", "terminate", "send_signal"):
                    self.add("kill-many", "high", node, "stops every process it finds")
                    break
        if self.qualname(node.iter) == "os.environ" or self.qualname(
                getattr(node.iter, "func", node.iter)).startswith("os.environ.items"):
            self.env_dump = self.env_dump or self.part(node.iter)
        if isinstance(node.target, ast.Name):
            self.values[node.target.id] = node.iter
        elif isinstance(node.target, ast.Tuple):
            under = self.text(node.iter)
            for position, element in enumerate(node.target.elts):
                if isinstance(element, ast.Name):
                    self.values[element.id] = ast.Constant(under if position == 0 else UNKNOWN)
        self.loops.append(ast.Pass())
        self.generic_visit(node)
        self.loops.pop()

    def visit_If(self, node: ast.If) -> None:
        self.filters += 1
        self.generic_visit(node)
        self.filters -= 1

    def visit_Call(self, node: ast.Call) -> None:
        self._passed(node)
        name = self.qualname(node.func)
        if name.startswith("pathlib.Path()."):
            name = "pathlib.Path." + name.split(".", 2)[-1]
        args = node.args
        self._environment(name, node)
        self._desktop(name, node)
        self._processes(name, node)
        self._files(name, node)
        self._runs(name, node)
        if name == "urllib.request.urlretrieve" and len(args) >= 2:
            self.downloaded.add(self.text(args[1]).lstrip("./"))
        if any(name.startswith(p) for p in NETWORK_PREFIXES) and not self.network:
            self.network = self.part(node)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if (method in SENDS and (self.network or name.startswith(NETWORK_PREFIXES))) or (
                name == "urllib.request.Request" and any(k.arg == "data" for k in node.keywords)):
            self.sent = self.sent or self.part(node)
        if (self.fetched or self.downloaded) and (method == "exec_module" or name in (
                "runpy.run_path", "importlib.machinery.SourceFileLoader")):
            self.add("download-exec", "high", node, "loads code just downloaded")
        if name.startswith(FETCH) or (method in ("get", "urlopen", "retrieve") and self.network):
            self.fetched = True
        if method in POWER and ("login1" in self.code or "dbus" in self.code):
            self.add("power", "high", node, "shuts down or restarts the machine")
        if name in SPAWNERS and any(isinstance(loop, ast.While) for loop in self.loops):
            self.add("fork-bomb", "blocked", node, "starts processes in an endless loop")
        if name in ("os.kill", "os.killpg") and args:
            many = self.text(args[0]) in ("-1", "0") or name == "os.killpg" or bool(self.loops)
            self.add("kill-many", "high" if many else "medium", node,
                     "stops every process it can" if many else "stops a process")
        if name in ("os.setuid", "os.setgid", "os.seteuid", "ctypes.CDLL"):
            self.add("privilege", "high", node, "changes the process's privileges")
        if name.endswith(("CronTab", "crontab.CronTab")):
            self.add("persistence", "high", node, "changes scheduled jobs")
        if name in ("keyring.get_password", "secretstorage.dbus_init", "browser_cookie3.load",
                    "browser_cookie3.chrome", "browser_cookie3.firefox"):
            self.secret_read = self.secret_read or self.part(node)
        if name in ("dict", "str", "print", "repr", "json.dumps", "list") and any(
                self.qualname(a) == "os.environ" for a in args):
            self.env_dump = self.env_dump or self.part(node)
        if name in ("os.environ.copy", "os.environ.items", "os.environ.values"):
            self.env_dump = self.env_dump or self.part(node)
        self.generic_visit(node)

    def _passed(self, node: ast.Call) -> None:
        """A function passed as a value is judged as its call: `partial(shutil.rmtree, p)`,
        `map(os.remove, files)`, `atexit.register(shutil.rmtree, p)`, `Timer(1, shutil.rmtree,
        [p])`, `Thread(target=shutil.rmtree, args=(p,))`: what follows it (a list or tuple
        of them unpacked) is what it is given, as any caller of such a function does."""
        for at, given in enumerate(node.args):
            if self._acting(given):
                self._as_called(node, given, node.args[at + 1:])
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        for key in ("target", "function", "func", "callback", "fn"):
            if key in keywords and self._acting(keywords[key]):
                given_args = keywords.get("args") or keywords.get("iterable")
                self._as_called(node, keywords[key], [given_args] if given_args else [])

    def _acting(self, value: ast.expr) -> TypeGuard[ast.Name | ast.Attribute]:
        if not isinstance(value, (ast.Name, ast.Attribute)):
            return False
        name = self.qualname(value)
        return name in ACTING or name in SHELL_CALLS or name in PROCESS_CALLS or \
            name in RUNNERS or name in DELETE

    def _as_called(self, node: ast.Call, function: ast.expr, given: list[ast.expr]) -> None:
        if len(given) == 1 and isinstance(given[0], (ast.List, ast.Tuple)):
            given = list(given[0].elts)
        called = ast.Call(func=function, args=given, keywords=[])
        self.visit_Call(ast.copy_location(called, node))

    def _environment(self, name: str, node: ast.Call) -> None:
        """A change of folder (later paths are read from there); a key read by name."""
        if name in ("os.chdir", "contextlib.chdir") and node.args:
            self.cwd = paths.within(self.cwd, self.text(node.args[0]))
        if name in ("os.getenv", "os.environ.get", "os.environ.pop", "os.getenvb") and node.args:
            self._variable(node.args[0], node)
        if name.startswith(OWN_SECRETS):
            self.secret_read = self.secret_read or self.part(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "api_key" and self.qualname(node.value).startswith("assistant."):
            self.secret_read = self.secret_read or self.part(node)  # the settings' own key
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Load) and self.qualname(node.value) == "os.environ":
            self._variable(node.slice, node)
        self.generic_visit(node)

    def _variable(self, named: ast.AST, node: ast.AST) -> None:
        """An environment variable read by name: an API key's is a secret, and so is one
        whose name is hidden by encoding."""
        hidden = self.decoder.decode(named)
        name = self.text(named) if hidden is None else hidden
        if paths.is_secret_variable(name) or name == DECODED:
            self.secret_read = self.secret_read or self.part(node)

    def _desktop(self, name: str, node: ast.Call) -> None:
        """Clicks and keys need a person; what is typed is checked as terminal input."""
        what, short = desktop.kind(name)
        if what in ("", "read"):
            return
        args = node.args
        if what == "save":
            if args:
                self.found += write_findings(self._at(self.text(args[0])), self.part(node),
                                             self.protected)
            return
        self.add("desktop", "medium", node, desktop.WHY[what])
        keyword = {k.arg: k.value for k in node.keywords}
        if short in desktop.PRESSES and args:
            name = self.text(args[0])
            if desktop.destructive(name):
                window = self.text(keyword["window"]) if "window" in keyword else ""
                self.add("desktop", "high", node, desktop.pressed_why(name, window))
            if short == "press":  # a key name with no such button on screen is the key
                self.typist.keys([name])
        if short in ("fill", "verbs.fill") and args and isinstance(args[0], ast.Dict):
            for value in args[0].values:
                self.typist.text(self._typed(value, node), field_named=True)
        elif what in ("type", "clipboard"):
            given = args[1] if short == "a11y.put_text" and len(args) > 1 else (
                args[0] if args else keyword.get("text") or keyword.get("message"))
            text = self._typed(given, node)
            if what == "clipboard":
                self.typist.copy(text)
            else:
                self.typist.text(text, field_named="into" in keyword)
        elif what == "keys":
            keys = [e for a in args for e in (a.elts if isinstance(a, (ast.List, ast.Tuple))
                                             else [a])]
            # `press('space' if c == ' ' else c)`: the branch that is not a fixed key name
            keys = [(k.orelse if isinstance(k.body, ast.Constant) else k.body)
                    if isinstance(k, ast.IfExp) else k for k in keys]
            self.typist.keys([self.text(k) for k in keys])

    def _typed(self, node: ast.AST | None, call: ast.Call) -> str:
        """The text a desktop call types or copies; hidden or fetched text is said so."""
        hidden = self.decoder.decode(node) if node is not None else None
        if hidden is not None:
            self.add("obfuscated-exec", "high", call, "types text hidden by encoding")
            return "" if hidden == DECODED else hidden
        text = self.text(node)
        if UNKNOWN in text and self.fetched:
            self.add("download-exec", "high", call, "types text fetched from the network")
        return text

    def _at(self, path: str) -> str:
        """A path as seen from the folder the code changed to."""
        return paths.within(self.cwd, path)

    def _shell(self, command: str, node: ast.AST) -> None:
        folder = next((self._at(self.text(k.value)) for k in getattr(node, "keywords", ())
                       if k.arg == "cwd"), self.cwd)
        self.found += shell_risk.check(command, self.scope.at(folder), self.downloaded)

    def _processes(self, name: str, node: ast.Call) -> None:
        if not node.args:
            return
        first = node.args[0]
        if isinstance(first, ast.Name) and isinstance(self.values.get(first.id),
                                                      (ast.List, ast.Tuple)):
            first = self.values[first.id]
        shell = name in SHELL_CALLS or name == "asyncio.create_subprocess_shell" or any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value
            for k in node.keywords)
        if name not in SHELL_CALLS and name not in PROCESS_CALLS:
            return
        hidden = [self.decoder.decode(n) for n in (
            first.elts if isinstance(first, (ast.List, ast.Tuple)) else [first])]
        if any(h is not None for h in hidden):
            text = " ".join(h for h in hidden if h is not None and h != DECODED)
            self._hidden(node, text)
            if text:
                self._shell(text, node)
            return
        if isinstance(first, (ast.List, ast.Tuple)):
            words = [self.text(e) for e in first.elts]
        elif name.startswith(("os.exec", "os.spawn", "asyncio.create_subprocess_exec")):
            given = node.args[1 if "spawn" not in name else 2:]
            if given and isinstance(given[0], (ast.List, ast.Tuple)):  # execvp(f, [f, ...])
                given = list(given[0].elts)
            words = [self.text(a) for a in given] or [self.text(first)]
        else:
            words = []
        if self.fetched and words[:1] == [UNKNOWN]:
            self.add("download-exec", "high", node,
                     "runs a program named at run time, in code that downloads")
        if shell and not words:
            command = self.text(first)
        else:
            command = " ".join(shlex.quote(w) if w != UNKNOWN else w for w in words)
        if not command.replace(UNKNOWN, "").strip():
            self.add("dynamic", "medium", node, "runs a command built at run time")
            return
        self._shell(command, node)

    def _path(self, node: ast.AST) -> str:
        """A path as the file rules read it. A Python variable is never "empty, so it means
        /" as in shell: it is named plainly, but for every file of a listing, which an `if`
        around the call narrows to some of them."""
        text = self.text(node)
        if paths.is_everything_under(text):
            root = text.split("/" + paths.EVERY)[0].removesuffix("/*")
            return f"{root}/{paths.EVERY}/<picked>" if self.filters else f"{root}/{paths.EVERY}"
        return self._at(text).replace(UNKNOWN, "<var>")

    def _files(  # noqa: C901 - one arm per file-changing call, as the rules read
            self, name: str, node: ast.Call) -> None:
        args = node.args
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        receiver = self.text(node.func.value) if isinstance(node.func, ast.Attribute) else ""
        target = ""
        first = self._path(args[0]) if args else ""
        if name in ("shutil.rmtree", "send2trash.send2trash") and args:
            self.found += delete_findings("rm", ["-r", first], self.part(node), self.protected)
        elif name in DELETE and args:
            self.found += delete_findings("rm", [first], self.part(node), self.protected)
        elif (method in ("unlink", "rmdir") and isinstance(node.func, ast.Attribute)
              and not name.startswith("os.")):
            self.found += delete_findings("rm", [self._path(node.func.value)],
                                          self.part(node), self.protected)
        elif name in ("shutil.move", "os.rename", "os.replace", "shutil.copy", "shutil.copy2",
                      "shutil.copyfile", "shutil.copytree", "os.symlink", "os.link") and \
                len(args) >= 2:
            source = self._path(args[0])
            target = each_named(source, self.text(args[1]))
            if name in ("shutil.move", "os.rename", "os.replace"):
                self.found += moved_away([source], self._at(target), self.part(node))
            if name in ("shutil.move", "os.rename", "os.replace") and paths.is_protected(
                    source, self.protected):
                self.add("self-tamper", "high", node, "moves the assistant's own files away")
        elif name in ("os.truncate", "shutil.make_archive") and len(args) >= 2:
            if name == "os.truncate":
                target = self._path(args[0])
            elif paths.normalise(self.text(args[-1])).startswith(("~/", "~")):
                self.personal_read = self.personal_read or self.part(node)
        elif method in WRITE_METHODS:
            target = receiver
        elif name in ("open", "io.open", "builtins.open", "os.open") or method == "open":
            path = receiver if method == "open" and name != "os.open" and not args else (
                self.text(args[0]) if args else receiver)
            mode_node = next((k.value for k in node.keywords if k.arg in ("mode", "flags")),
                             args[1] if len(args) > 1 else None)
            if method == "open" and name not in ("open", "io.open", "os.open"):
                path, mode_node = receiver, args[0] if args else mode_node
            mode = self.text(mode_node) if mode_node is not None else "r"
            path = self._at(path)
            if any(c in mode for c in "wax+") or "O_WRONLY" in self.part(node) or \
                    "O_RDWR" in self.part(node):
                target = path
            elif paths.is_secret(path):
                self.secret_read = self.secret_read or self.part(node)
            elif paths.normalise(path).startswith("~/"):
                self.personal_read = self.personal_read or self.part(node)
        elif name in ("fileinput.input", "fileinput.FileInput") and args and any(
                k.arg == "inplace" and not (isinstance(k.value, ast.Constant) and
                                            not k.value.value) for k in node.keywords):
            files = args[0].elts if isinstance(args[0], (ast.List, ast.Tuple)) else [args[0]]
            for each in files:
                self.found += write_findings(self._path(each), self.part(node), self.protected)
            self.wrote = True
        elif name == "sqlite3.connect" and args:
            target = self.text(args[0])
        elif method in ("read_text", "read_bytes") and paths.is_secret(receiver):
            self.secret_read = self.secret_read or self.part(node)
        elif name in ("os.chmod", "os.chown", "os.lchown", "shutil.chown") or method in (
                "chmod", "chown"):
            path = self.text(args[0]) if name.startswith(("os.", "shutil.")) and args else receiver
            if paths.is_everything_under(path):
                self.add("wide-delete", "high", node, "changes who may use every file in "
                         + path.split("/" + paths.EVERY)[0])
            if paths.is_system(path) or paths.is_wide(path):
                self.add("privilege", "high", node, "changes permissions of system paths")
        elif name not in LOOKS and args and paths.is_secret(first):
            self.secret_read = self.secret_read or self.part(node)
        if target:
            target = self._at(target)
            self.wrote = True
            self.found += write_findings(target, self.part(node), self.protected)
            if self.fetched:  # what is written after a fetch may be what was fetched
                self.downloaded.add(target.lstrip("./"))
        if name in ("shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree",
                    "tarfile.open", "zipfile.ZipFile.write") and args and \
                paths.is_secret(self.text(args[0])):
            self.secret_read = self.secret_read or self.part(node)

    def _hidden(self, node: ast.AST, text: str) -> None:
        said = " ".join(text.split())
        said = said if len(said) <= 60 else said[:57] + "..."
        self.add("obfuscated-exec", "high", node, "runs code hidden by encoding"
                 + (f" (it decodes to `{said}`)" if said else ""))

    def _runs(self, name: str, node: ast.Call) -> None:
        if name not in RUNNERS or not node.args:
            return
        first = node.args[0]
        if isinstance(first, ast.Call) and self.qualname(first.func) in ("compile",
                                                                          "builtins.compile"):
            first = first.args[0] if first.args else first
        hidden = self.decoder.decode(first)
        if hidden is not None:
            text = "" if hidden == DECODED else hidden
            self._hidden(node, text)
            if text:
                with contextlib.suppress(RecursionError):
                    self.found += check(text, self.scope)
            return
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            try:
                self.found += check(first.value, self.scope)
            except RecursionError:
                self.add("dynamic", "medium", node, "runs code nested too deep to read")
            return
        inner = {self.qualname(c.func) for c in ast.walk(first) if isinstance(c, ast.Call)}
        for name_node in ast.walk(first):
            value = self.values.get(name_node.id) if isinstance(name_node, ast.Name) else None
            if value is not None:
                inner |= {self.qualname(c.func) for c in ast.walk(value)
                          if isinstance(c, ast.Call)}
        if any(n.startswith(FETCH) or n.startswith(NETWORK_PREFIXES) for n in inner):
            self.add("download-exec", "high", node, "runs code fetched from the network")
        elif inner & DECODERS or any(n.endswith((".decode", "b64decode")) for n in inner):
            self.add("obfuscated-exec", "high", node, "runs code hidden by encoding")
        else:
            self.add("dynamic", "medium", node, "runs code built at run time")


def check(code: str, scope: Scope) -> list[Finding]:
    """Findings for a Python snippet."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return [Finding("unparsed", "medium", (exc.text or "").strip(),
                        f"is not valid Python (line {exc.lineno}): it cannot be checked")]
    reader = _Reader(code, scope)
    reader.bind_parameters(tree)
    reader.visit(tree)
    found = reader.found + reader.typist.findings(scope, reader.found)
    if reader.sent and reader.personal_read and not reader.secret_read:
        found.append(Finding("exfiltration", "high", f"{reader.personal_read} … {reader.sent}",
                             "sends the user's own files over the network"))
    if reader.network and (reader.secret_read or reader.env_dump):
        what = reader.secret_read or reader.env_dump
        found.append(Finding("exfiltration", "high", f"{what} … {reader.network}",
                             "reads secrets and talks to the network"))
    elif reader.secret_read:
        found.append(Finding("secrets", "high", reader.secret_read, "reads keys or credentials"))
    elif reader.env_dump:
        kept = re.search(r"(?i)token|secret|passw|api_?key|_key\b", code) or reader.wrote
        found.append(Finding("secrets", "high" if kept else "medium", reader.env_dump,
                             "collects API keys and tokens from the environment" if kept else
                             "reads every environment variable, API keys included"))
    return found
