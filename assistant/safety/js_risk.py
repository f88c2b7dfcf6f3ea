"""Risk rules for JavaScript (Node): careful patterns over code with comments removed.

Child-process calls hand their command text to the shell rules; fs calls are judged
by the path they are given, with `os.homedir()` and `process.env.HOME` read as `~`.
"""

from __future__ import annotations

import re

from assistant.safety import paths
from assistant.safety.risk import Finding

STRING = r"""(?:'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`)"""
ARG = rf"""(?:{STRING}|[^,()]|\([^()]*\))+"""
HOME = re.compile(r"(?:require\(\s*['\"](?:node:)?os['\"]\s*\)|\bos)\.homedir\(\)"
                  r"|process\.env\.HOME\b|process\.env\[['\"]HOME['\"]\]")
CALLED = (r"(?:(?<![.\w$])|(?<=child_process\.)|(?<=\bcp\.)|(?<=childProcess\.)"
          r"|(?<=child_process\"\)\.)|(?<=child_process'\)\.))")
CHILD = re.compile(rf"{CALLED}(execSync|exec|spawnSync|spawn|execFileSync|execFile|fork)"
                   rf"\s*\(\s*({ARG})(?:,\s*(\[[^\]]*\]))?")
FS_DELETE = re.compile(rf"\b(rmSync|rmdirSync|rm|rmdir|unlinkSync|unlink)\s*\(\s*({ARG})"
                       rf"(\s*,\s*\{{[^}}]*recursive\s*:\s*true)?")
FS_WRITE = re.compile(rf"\b(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream"
                      rf"|copyFileSync|copyFile|renameSync|rename|symlinkSync|cpSync)\s*\(\s*({ARG})"
                      rf"(?:\s*,\s*({ARG}))?")
FS_READ = re.compile(rf"\b(readFileSync|readFile|createReadStream|readdirSync)\s*\(\s*({ARG})")
FS_CHMOD = re.compile(rf"\b(chmodSync|chmod|chownSync|chown)\s*\(\s*({ARG})")
NETWORK = re.compile(r"\bfetch\s*\(|\b(?:https?|net|tls|dgram)\.(?:request|get|connect|"
                     r"createConnection|createSocket)\s*\(|\baxios\b|\bWebSocket\s*\(")
ENV_DUMP = re.compile(r"JSON\.stringify\(\s*process\.env\s*\)|Object\.(?:entries|keys|values|"
                      r"assign)\([^)]*process\.env\s*\)|\.\.\.process\.env|console\.\w+\("
                      r"\s*process\.env\s*\)")
RUNNER = re.compile(rf"\b(eval|Function|runInNewContext|runInThisContext|runInContext)\s*\(\s*"
                    rf"({ARG})")
LOOP = re.compile(r"\bwhile\s*\(\s*(?:true|1)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|setInterval\s*\(")
KILL = re.compile(rf"\bprocess\.kill\s*\(\s*({ARG})")


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


def value(expr: str) -> str:
    """The string an argument expression evaluates to; run-time parts become `$?`."""
    expr = HOME.sub("'~'", expr.strip())
    join = re.fullmatch(r"(?:path\.)?(?:join|resolve)\((.*)\)", expr, re.DOTALL)
    if join:
        return "/".join(value(p) for p in re.findall(ARG, join.group(1)))
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
            result += re.sub(r"\$\{\s*'~'\s*\}", "~", inner) if piece[0] == "`" else inner
        elif re.fullmatch(r"-?\d+", piece):
            result += piece
        else:
            result += paths.UNKNOWN
    return re.sub(r"\$\{[^}]*\}", paths.UNKNOWN, result)


def check(
    code: str, protected: tuple[str, ...] = (), seen: set[str] | None = None
) -> list[Finding]:
    """Findings for a JavaScript snippet."""
    from assistant.safety.shell_risk import check as shell_check
    from assistant.safety.shell_risk import delete_findings, write_findings

    code = _strip_comments(code)
    found: list[Finding] = []
    for match in CHILD.finditer(code):
        command = value(match.group(2))
        if match.group(3):
            command += " " + " ".join(value(a) for a in re.findall(STRING, match.group(3)))
        if not command.replace(paths.UNKNOWN, "").strip():
            found.append(Finding("dynamic", "medium", match.group(0),
                                 "runs a command built at run time"))
        else:
            found += shell_check(command, protected, seen)
    for match in FS_DELETE.finditer(code):
        args = ["-r"] if match.group(3) else []
        target = value(match.group(2)).replace(paths.UNKNOWN, "<var>")
        found += delete_findings("rm", [*args, target], match.group(0), protected)
    for match in FS_WRITE.finditer(code):
        plain = match.group(1).startswith(("writeFile", "appendFile", "createWriteStream"))
        target = match.group(2) if plain else (match.group(3) or "")
        found += write_findings(value(target), match.group(0), protected)
        if not plain and paths.is_secret(value(match.group(2))):
            found.append(Finding("secrets", "high", match.group(0), "copies keys or credentials"))
    for match in FS_CHMOD.finditer(code):
        target = value(match.group(2))
        if paths.is_system(target) or paths.is_wide(target):
            found.append(Finding("privilege", "high", match.group(0),
                                 "changes permissions of system paths"))
    secret = next((m.group(0) for m in FS_READ.finditer(code)
                   if paths.is_secret(value(m.group(2)))), "")
    env = ENV_DUMP.search(code)
    network = NETWORK.search(code)
    if network and (secret or env):
        what = secret or (env.group(0) if env else "")
        found.append(Finding("exfiltration", "high", f"{what} … {network.group(0)}",
                             "reads secrets and talks to the network"))
    elif secret:
        found.append(Finding("secrets", "high", secret, "reads keys or credentials"))
    elif env:
        found.append(Finding("secrets", "medium", env.group(0),
                             "reads every environment variable, API keys included"))
    for match in RUNNER.finditer(code):
        arg = match.group(2)
        if re.search(r"\bfetch\b|\bhttps?\.get\b|axios|\.text\(\)", arg) or (network and \
                re.search(r"\b(body|data|text|res|response|script|code)\b", arg)):
            found.append(Finding("download-exec", "high", match.group(0),
                                 "runs code fetched from the network"))
        elif re.search(r"atob|Buffer\.from\([^)]*(base64|hex)|fromCharCode|unescape", arg):
            found.append(Finding("obfuscated-exec", "high", match.group(0),
                                 "runs code hidden by encoding"))
        elif re.fullmatch(STRING, arg.strip()):
            found += check(value(arg), protected, seen)
        else:
            found.append(Finding("dynamic", "medium", match.group(0),
                                 "runs code built at run time"))
    if re.search(r"\.then\(\s*eval\s*\)", code):
        found.append(Finding("download-exec", "high", "then(eval)",
                             "runs code fetched from the network"))
    for loop in LOOP.finditer(code):
        body = code[loop.end() : loop.end() + 400]
        if re.search(r"\b(fork|spawn|exec|execFile)\s*\(", body):
            found.append(Finding("fork-bomb", "blocked", code[loop.start() : loop.end() + 60],
                                 "starts processes in an endless loop"))
    for match in KILL.finditer(code):
        many = value(match.group(1)) in ("-1", "0")
        found.append(Finding("kill-many", "high" if many else "medium", match.group(0),
                             "stops every process it can" if many else "stops a process"))
    return found
