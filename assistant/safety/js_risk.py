"""Risk rules for JavaScript (Node): careful patterns over code with comments removed.

Child-process calls hand their command text to the shell rules; fs calls are judged
by the path they are given, with `os.homedir()` and `process.env.HOME` read as `~`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.safety import desktop, paths, shell_risk
from assistant.safety.files import delete_findings, each_named, write_findings
from assistant.safety.findings import Finding, Scope

STRING = r"""(?:'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`)"""
ARG = rf"""(?:{STRING}|[^,()]|\([^()]*\))+"""
HOME = re.compile(r"(?:require\(\s*['\"](?:node:)?os['\"]\s*\)\.|\bos\.|(?<![\w$.]))homedir\(\)"
                  r"|process\.env\.HOME\b|process\.env\[['\"]HOME['\"]\]")
CALLED = (r"(?:(?<![.\w$])|(?<=child_process\.)|(?<=\bcp\.)|(?<=childProcess\.)"
          r"|(?<=child_process\"\)\.)|(?<=child_process'\)\.))")
CHILD = re.compile(rf"{CALLED}(execSync|exec|spawnSync|spawn|execFileSync|execFile|fork)"
                   rf"\s*\(\s*({ARG})(?:,\s*(\[[^\]]*\]))?")
FS_DELETE = re.compile(rf"\b(rmSync|rmdirSync|rm|rmdir|unlinkSync|unlink)\s*\(\s*({ARG})"
                       rf"(\s*,\s*\{{[^}}]*recursive\s*:\s*true)?")
FS_WRITE = re.compile(rf"\b(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream"
                      rf"|truncateSync|truncate"
                      rf"|copyFileSync|copyFile|renameSync|rename|symlinkSync|cpSync)\s*\(\s*({ARG})"
                      rf"(?:\s*,\s*({ARG}))?")
FS_READ = re.compile(rf"\b(readFileSync|readFile|createReadStream|readdirSync)\s*\(\s*({ARG})")
FS_CHMOD = re.compile(rf"\b(chmodSync|chmod|chownSync|chown)\s*\(\s*({ARG})")
NETWORK = re.compile(r"\bfetch\s*\(|\b(?:https?|net|tls|dgram)\.(?:request|get|connect|"
                     r"createConnection|createSocket)\s*\(|\baxios\b|\bWebSocket\s*\(")
ENV_DUMP = re.compile(r"JSON\.stringify\(\s*process\.env\b|Object\.(?:entries|keys|values|"
                      r"assign)\([^)]*process\.env\s*\)|\.\.\.process\.env|console\.\w+\("
                      r"\s*process\.env\s*\)")
RUNNER = re.compile(rf"\b(eval|Function|runInNewContext|runInThisContext|runInContext)\s*\(\s*"
                    rf"({ARG})")
LOOP = re.compile(r"\bwhile\s*\(\s*(?:true|1)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|setInterval\s*\(")
KILL = re.compile(rf"\bprocess\.kill\s*\(\s*({ARG})")
ASSIGN = re.compile(rf"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*"
                    rf"((?:{STRING}|[^,();\n]|\([^()]*\))+)")
LISTING = re.compile(rf"\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+(?:await\s+)?"
                     rf"(?:fs\.)?"
                     rf"(?:readdirSync|readdir)\(\s*({ARG})|(?:readdirSync|readdir)\(\s*({ARG})\)"
                     rf"\s*\.forEach\(\s*\(?\s*([A-Za-z_$][\w$]*)")
DECODE = re.compile(r"\batob\s*\(|Buffer\.from\([^)]*['\"](?:base64|base64url|hex|latin1|binary)"
                    r"['\"]|fromCharCode|\bunescape\s*\(|decodeURIComponent\s*\(|split\(\s*['\"]{2}"
                    r"\s*\)\s*\.reverse\(\)|(?:\\x[0-9a-fA-F]{2}){4}")
SINK = re.compile(r"child_process|\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync"
                  r"|eval|Function"
                  r"|runInNewContext|runInThisContext|runInContext)\s*\(|\brequire\(\s*[A-Za-z_$]"
                  r"|\]\s*\(")
OPEN = re.compile(rf"\bopenSync\s*\(\s*({ARG})\s*,\s*['\"]([rwa]\+?|[wa]x?)['\"]")
SENDING = re.compile(r"method\s*:\s*['\"](?:POST|PUT|PATCH)|\.(?:post|put|patch)\s*\("
                     r"|\.pipe\(\s*req|\b(?:https?)\.request\s*\(|\bnet\.(?:connect|createConnection)|FormData"
                     r"|\.send\s*\(|\.write\s*\(")
REQUIRE = re.compile(rf"\brequire\s*\(\s*({ARG})\s*\)")
EACH = re.compile(rf"\[\s*((?:{STRING}\s*,?\s*)+)\]\s*\.(?:forEach|map)\(\s*\(?\s*"
                  rf"([A-Za-z_$][\w$]*)")
HOME_FOLDERS = re.compile(r"['\"`](?:Documents|Pictures|Videos|Music|Desktop|Downloads)['\"`]"
                          r"\s*,\s*['\"`](?:Documents|Pictures|Videos|Music|Desktop|Downloads)")
FUNCTION = re.compile(r"\bfunction\s+([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*)")
CHDIR = re.compile(rf"\bprocess\.chdir\s*\(\s*({ARG})\)")
CHILD_CWD = re.compile(rf"\bcwd\s*:\s*((?:{STRING}|[^,(){{}}]|\([^()]*\))+)")
ENV_NAME = re.compile(r"process\.env(?:\.([A-Za-z_$][\w$]*)|\[\s*['\"`]([^'\"`]+)['\"`]\s*\])"
                      r"|\{([^{}]*)\}\s*=\s*process\.env\b")
KEYRING = re.compile(r"\b(?:getPassword|findCredentials|findPassword)\s*\(")
DESKTOP = re.compile(rf"\b(typeString|typeStringDelayed|keyboard\.type|keyTap|keyToggle|pressKey"
                     rf"|moveMouse|moveMouseSmooth|mouseClick|dragMouse|scrollMouse|mouseToggle"
                     rf"|leftClick|rightClick|doubleClick)\s*\(\s*({ARG})?")
"""robotjs and nut.js: typing, keys and the mouse."""


def _strip_comments(code: str) -> str:
    """Blank out comments, leaving strings (which may contain // or /*) alone."""
    out: list[str] = []
    i = 0
    while i < len(code):
        match = re.compile(STRING).match(code, i)
        if match:
            out.append(match.group(0))
            i = match.end()
        elif code.startswith("//", i):
            i = code.find("\n", i) if code.find("\n", i) >= 0 else len(code)
        elif code.startswith("/*", i):
            end = code.find("*/", i + 2)
            i = len(code) if end < 0 else end + 2
        else:
            out.append(code[i])
            i += 1
    return "".join(out)


def value(expr: str, known: dict[str, str] | None = None, depth: int = 0) -> str:
    """The string an argument expression evaluates to; run-time parts become `$?`.

    `known` holds what the code assigned to its variables (their expressions)."""
    known = known or {}
    expr = HOME.sub("'~'", expr.strip())
    if expr in known and depth < 8:
        return value(known[expr], known, depth + 1)
    join = re.fullmatch(r"(?:path\.)?(?:join|resolve)\((.*)\)", expr, re.DOTALL)
    if join:
        return "/".join(value(p, known, depth + 1) for p in re.findall(ARG, join.group(1)))
    pieces = re.findall(rf"{STRING}|[^+]+", expr)
    if not pieces:
        return paths.UNKNOWN
    result = ""
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        if piece[:1] in "'\"`" and piece[-1:] == piece[:1]:
            inner = piece[1:-1]
            if piece[0] == "`":
                inner = re.sub(r"\$\{\s*'~'\s*\}", "~", inner)
                inner = re.sub(r"\$\{\s*([A-Za-z_$][\w$]*)\s*\}", lambda m: value(
                    m.group(1), known, depth + 1) if m.group(1) in known else m.group(0), inner)
            result += inner
        elif re.fullmatch(r"-?\d+", piece):
            result += piece
        elif piece.removesuffix(".name") in known and depth < 8:
            result += value(known[piece.removesuffix(".name")], known, depth + 1)
        else:
            result += paths.UNKNOWN
    return re.sub(r"\$\{[^}]*\}", paths.UNKNOWN, result)


CHILD_ALIAS = re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:await\s+import|"
                         r"require)\(\s*['\"](?:node:)?child_process['\"]\s*\)"
                         r"|\bimport\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+['\"]"
                         r"(?:node:)?child_process['\"]")

CHILD_PICKED = re.compile(r"\{([^{}]*)\}\s*=\s*require\(\s*['\"](?:node:)?child_process['\"]"
                          r"\s*\)")


def _named_child(code: str) -> str:
    """`const sh = require('child_process'); sh.execSync(...)`: the module under any name
    is read as child_process, whose calls the shell rules judge."""
    for match in CHILD_PICKED.finditer(code):  # const { execSync: run } = require(...)
        for given, alias in re.findall(r"([A-Za-z_$][\w$]*)\s*:\s*([A-Za-z_$][\w$]*)",
                                       match.group(1)):
            code = re.sub(rf"(?<![\w$.]){re.escape(alias)}\s*\(", f"{given}(", code)
    for match in CHILD_ALIAS.finditer(code):
        alias = match.group(1) or match.group(2)
        if alias not in ("child_process", "cp", "childProcess"):
            code = re.sub(rf"(?<![\w$.]){re.escape(alias)}\s*\.", "child_process.", code)
    return code


def check(  # noqa: C901 - independent pattern checks read top to bottom, each one line
        code: str, scope: Scope) -> list[Finding]:
    """Findings for a JavaScript snippet."""
    protected = scope.protected
    code = _named_child(HOME.sub("'~'", _strip_comments(code)))
    known = {m.group(1): m.group(2) for m in ASSIGN.finditer(code)}
    for match in FUNCTION.finditer(code):  # parameters take the first call's arguments
        called = rf"(?<![\w$.]){re.escape(match.group(1))}\s*\(\s*({ARG})"
        calls = list(re.finditer(called, code[match.end() :]))
        if calls:  # the last call: the first may be the function calling itself
            known.setdefault(match.group(2), calls[-1].group(1))
    for match in EACH.finditer(code):  # a callback's parameter takes each item in turn
        items = re.findall(STRING, match.group(1))
        known[match.group(2)] = max(items, key=lambda item: _weight(value(item)))
    for match in LISTING.finditer(code):  # an entry's name stands for every entry
        known[match.group(1) or match.group(4)] = "'*'"
    network = NETWORK.search(code)
    folders = [(m.start(), value(m.group(1), known)) for m in CHDIR.finditer(code)]

    def at(position: int, path: str = "") -> str:
        """The folder at `position`, after the process.chdir calls before it; `path` in it."""
        cwd = scope.cwd
        for start, folder in folders:
            cwd = paths.within(cwd, folder) if start < position else cwd
        return paths.within(cwd, path) if path else cwd

    found: list[Finding] = _desktop(code, known, scope) + _environment(code)
    downloaded: set[str] = set()
    for match in FS_WRITE.finditer(code):
        plain = match.group(1).startswith(("writeFile", "appendFile", "createWriteStream",
                                           "truncate"))
        target = at(match.start(), value(match.group(2) if plain else (match.group(3) or ""),
                                         known))
        target = target if plain else each_named(value(match.group(2), known), target)
        found += write_findings(target, match.group(0), protected)
        if network:  # what is written beside a fetch may be what was fetched
            downloaded.add(target.lstrip("./"))
        if not plain and paths.is_secret(value(match.group(2), known)):
            found.append(Finding("secrets", "high", match.group(0), "copies keys or credentials"))
    for match in CHILD.finditer(code):
        command = value(match.group(2), known)
        if match.group(3):
            command += " " + " ".join(value(a, known) for a in re.findall(STRING, match.group(3)))
        if not command.replace(paths.UNKNOWN, "").strip():
            found.append(Finding("dynamic", "medium", match.group(0),
                                 "runs a command built at run time"))
        else:
            option = CHILD_CWD.search(code, match.end(), match.end() + 300)
            folder = at(match.start(), value(option.group(1), known)) if option else at(
                match.start())
            found += shell_risk.check(command, scope.at(folder), downloaded)
    home = HOME_FOLDERS.search(code)
    if home and "'~'" in code:  # a list of home folders, deleted
        for match in FS_DELETE.finditer(code):
            if match.group(3):
                found.append(Finding("wide-delete", "high", match.group(0),
                                     f"deletes home folders ({home[0]}...)"))
    for match in FS_DELETE.finditer(code):
        args = ["-r"] if match.group(3) else []
        target = at(match.start(), value(match.group(2), known)).replace(paths.UNKNOWN, "<var>")
        found += delete_findings("rm", [*args, target], match.group(0), protected)
    for match in OPEN.finditer(code):
        if match.group(2) != "r":
            found += write_findings(at(match.start(), value(match.group(1), known)),
                                    match.group(0), protected)
    for match in FS_CHMOD.finditer(code):
        target = value(match.group(2), known)
        if paths.is_everything_under(target):
            found.append(Finding("wide-delete", "high", match.group(0),
                                 f"changes who may use everything in {target}"))
        if paths.is_system(target) or paths.is_wide(target):
            found.append(Finding("privilege", "high", match.group(0),
                                 "changes permissions of system paths"))
    found += _data(code, known, network, at)
    found += _runs(code, known, network, downloaded, scope)
    for loop in LOOP.finditer(code):
        body = code[loop.end() : loop.end() + 400]
        if re.search(r"\b(fork|spawn|exec|execFile)\s*\(", body):
            found.append(Finding("fork-bomb", "blocked", code[loop.start() : loop.end() + 60],
                                 "starts processes in an endless loop"))
    for match in KILL.finditer(code):
        looped = re.search(r"\bfor\s*\(|\.forEach\(|\bwhile\s*\(", code[: match.start()])
        many = value(match.group(1), known) in ("-1", "0") or looped
        found.append(Finding("kill-many", "high" if many else "medium", match.group(0),
                             "stops every process it can" if many else "stops a process"))
    return found


def _weight(path: str) -> int:
    """How much an item of a list could touch: the riskiest stands for the list."""
    return 2 * paths.is_wide(path) + paths.is_system(path) + len(shell_risk.check(path, Scope()))


def _data(code: str, known: dict[str, str], network: re.Match[str] | None,
          at: Callable[[int, str], str]) -> list[Finding]:
    """Secrets, the environment and the user's own files: read, and maybe sent away."""
    reads = [(m.group(0), at(m.start(), value(m.group(2), known))) for m in FS_READ.finditer(code)]
    secret = next((part for part, path in reads if paths.is_secret(path)), "")
    secret = secret or next((m.group(0) for m in KEYRING.finditer(code)), "")
    personal = next((part for part, path in reads if paths.normalise(path).startswith("~/")), "")
    env = ENV_DUMP.search(code)
    sending = SENDING.search(code)
    if network and (secret or env):
        what = secret or (env.group(0) if env else "")
        return [Finding("exfiltration", "high", f"{what} … {network.group(0)}",
                        "reads secrets and talks to the network")]
    if network and personal and sending:
        return [Finding("exfiltration", "high", f"{personal} … {sending.group(0)}",
                        "sends the user's own files over the network")]
    if secret:
        return [Finding("secrets", "high", secret, "reads keys or credentials")]
    if env:
        kept = re.search(r"(?i)token|secret|passw|api_?key|writeFile", code)
        return [Finding("secrets", "high" if kept else "medium", env.group(0),
                        "collects API keys and tokens from the environment" if kept else
                        "reads every environment variable, API keys included")]
    return []


def _environment(code: str) -> list[Finding]:
    """An API key or token read from the environment by name (`process.env.OPENAI_API_KEY`)."""
    for match in ENV_NAME.finditer(code):
        names = [match.group(1) or match.group(2) or "",
                 *re.findall(r"[A-Za-z_$][\w$]*", match.group(3) or "")]
        secret = next((n for n in names if paths.is_secret_variable(n)), "")
        if secret:
            return [Finding("secrets", "high", match.group(0),
                            f"reads {secret}, an API key or token, from the environment")]
    return []


def _desktop(code: str, known: dict[str, str], scope: Scope) -> list[Finding]:
    """robotjs and nut.js: acting needs a person; typed text is checked as terminal input."""
    typist = desktop.Typist()
    found: list[Finding] = []
    for match in DESKTOP.finditer(code):
        call, given = match.group(1), value(match.group(2) or "''", known)
        if call in ("typeString", "typeStringDelayed", "keyboard.type"):
            typist.text(given)
            found.append(Finding("desktop", "medium", match.group(0), desktop.WHY["type"]))
        elif call in ("keyTap", "keyToggle", "pressKey"):
            typist.keys([given])
            found.append(Finding("desktop", "medium", match.group(0), desktop.WHY["keys"]))
        else:
            found.append(Finding("desktop", "medium", match.group(0), desktop.WHY["act"]))
    return found + typist.findings(scope)


def _runs(code: str, known: dict[str, str], network: re.Match[str] | None,
          downloaded: set[str], scope: Scope) -> list[Finding]:
    """Code the snippet runs: fetched, decoded, or built at run time."""
    found: list[Finding] = []
    for match in RUNNER.finditer(code):
        arg = match.group(2)
        fetched = re.fullmatch(r"[A-Za-z_$][\w$]*", arg.strip()) or re.search(
            r"\bfetch\b|\bhttps?\.get\b|axios|\.text\(\)", arg)
        if network and (match.group(1) == "Function" or fetched):
            found.append(Finding("download-exec", "high", match.group(0),
                                 "runs code fetched from the network"))
        elif DECODE.search(arg) or DECODE.search(known.get(arg.strip().split("(")[0], "")):
            found.append(Finding("obfuscated-exec", "high", match.group(0),
                                 "runs code hidden by encoding"))
        elif re.fullmatch(STRING, arg.strip()):
            found += check(value(arg), scope)
        else:
            found.append(Finding("dynamic", "medium", match.group(0),
                                 "runs code built at run time"))
    if re.search(r"\.then\(\s*eval\s*\)", code):
        found.append(Finding("download-exec", "high", "then(eval)",
                             "runs code fetched from the network"))
    for match in REQUIRE.finditer(code):
        if value(match.group(1), known).lstrip("./") in downloaded:
            found.append(Finding("download-exec", "high", match.group(0),
                                 "loads code just downloaded"))
    decoded = DECODE.search(code) or (re.search(r"Buffer\.from\(", code) if re.search(
        r"['\"](?:base64|hex)['\"]", code) else None)
    sink = SINK.search(code)
    if decoded and sink and not any(f.family == "obfuscated-exec" for f in found):
        found.append(Finding("obfuscated-exec", "high", f"{decoded.group(0)} … {sink.group(0)}",
                             "runs code hidden by encoding"))
    return found
