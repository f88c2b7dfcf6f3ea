"""The language a proposal really is written in, when a model labels it plainly wrong.

Small models write shell in a ```python block (it fails with SyntaxError, again and
again) or Python in a shell call (where `import os` starts ImageMagick's `import`).
Only the two unmistakable cases are relabelled; anything less clear keeps its label
and its error tells the model. A relabelled proposal is rated and shown as the
language that will run, so nobody approves one language and gets another.
"""

from __future__ import annotations

import ast
import keyword
import re
import shutil
import subprocess

# Shell words that start a command without being a program on PATH.
_SHELL_WORDS = frozenset({
    "if", "for", "while", "until", "case", "select", "function", "time", "{", "[", "[[", "!",
    ".", "cd", "echo", "printf", "export", "unset", "set", "source", "alias", "pushd", "popd",
    "shopt", "test", "type", "umask", "ulimit", "declare", "local", "read", "exit", "eval",
    "exec", "trap", "wait", "true", "false",
})
# Python words that are also programs on some systems (ImageMagick's `import`,
# mailcap's `print`): they must never make broken Python look like shell.
_PYTHON_FIRST = frozenset(keyword.kwlist) - {"if", "for", "while"} | {"print"}
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
_BARE = (ast.Name, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Sub, ast.USub, ast.Div, ast.Load)


def actual_language(label: str, code: str) -> str:
    """The language `code` runs as: `label`, unless it is unmistakably the other one."""
    if label == "python" and _is_shell_not_python(code):
        return "shell"
    if label == "shell" and _is_python_not_shell(code):
        return "python"
    return label


def _parse_python(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError):
        return None


def _is_shell_not_python(code: str) -> bool:
    """Broken Python that bash accepts and that starts with a command; or bare commands
    such as `ls -la` or `df -h`, which parse as Python but only name programs."""
    tree = _parse_python(code)
    if tree is not None:
        return _bare_commands(tree)
    return _first_word_is_command(code) and _bash_parses(code) is True


def _is_python_not_shell(code: str) -> bool:
    """Valid Python that starts with an import, or that bash cannot even parse."""
    tree = _parse_python(code)
    if tree is None or not tree.body or all(_bare_command(s) for s in tree.body):
        return False
    return isinstance(tree.body[0], (ast.Import, ast.ImportFrom)) or _bash_parses(code) is False


def _bare_commands(tree: ast.Module) -> bool:
    """Only commands, and more than one name alone (a lone `df` may be a variable)."""
    body = tree.body
    if not body or not all(_bare_command(statement) for statement in body):
        return False
    return len(body) > 1 or not isinstance(body[0].value, ast.Name)  # type: ignore[attr-defined]


def _bare_command(statement: ast.stmt) -> bool:
    """`ls -la`, `cd /tmp`: names, minus signs and slashes, the first name a program."""
    if not isinstance(statement, ast.Expr):
        return False
    nodes = list(ast.walk(statement.value))
    if not all(isinstance(node, _BARE) for node in nodes):
        return False
    names = sorted(
        (node for node in nodes if isinstance(node, ast.Name)),
        key=lambda node: node.col_offset,
    )
    return bool(names) and _is_command(names[0].id)


def _first_word_is_command(code: str) -> bool:
    for line in code.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        return _ASSIGNMENT.match(words[0]) is not None or _is_command(words[0])
    return False


def _is_command(word: str) -> bool:
    if word in _PYTHON_FIRST:
        return False
    return word in _SHELL_WORDS or shutil.which(word) is not None


def _bash_parses(code: str) -> bool | None:
    """Whether bash parses `code` (`bash -n`: nothing runs); None when it cannot tell."""
    bash = shutil.which("bash")
    if bash is None:
        return None
    try:
        checked = subprocess.run(
            [bash, "--noprofile", "--norc", "-n"], input=code, text=True,
            capture_output=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return checked.returncode == 0
