"""What Python expressions evaluate to, as far as a reader sees at once: the dotted name a
call resolves to through imports and aliases, and the text or path a value spells, with
`$?` for what is known only at run time. The risk reader builds on this."""

from __future__ import annotations

import ast
import re

from assistant.safety import paths
from assistant.safety.python_decode import DECODED, Decoder

UNKNOWN = paths.UNKNOWN
LISTINGS = ("glob.glob", "glob.iglob", "sorted")
"""Calls whose items are paths matching a pattern: `glob.glob(P)[0]` is one of P."""


class Values(ast.NodeVisitor):
    """Names and values of one module, learned while it is visited in order."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.lines = code.splitlines(keepends=True)
        self.aliases: dict[str, str] = {}
        self.values: dict[str, ast.expr] = {}
        self.resolving: set[str] = set()
        self.decoder = Decoder(self.qualname, self.values)

    def qualname(self, node: ast.AST) -> str:
        """Dotted name a call target resolves to through imports and simple aliases."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            value = self.values.get(node.id)
            if isinstance(value, (ast.Attribute, ast.Name, ast.Call)) and \
                    node.id not in self.resolving:
                self.resolving.add(node.id)  # `x = x.strip()` names itself
                try:
                    return self.qualname(value)
                finally:
                    self.resolving.discard(node.id)
            return node.id
        if isinstance(node, ast.Attribute):
            return f"{self.qualname(node.value)}.{node.attr}"
        if isinstance(node, ast.Call):
            name = self.qualname(node.func)
            if name in ("__import__", "importlib.import_module") and node.args:
                return self.text(node.args[0])
            if name == "getattr" and len(node.args) >= 2:
                return f"{self.qualname(node.args[0])}.{self.text(node.args[1])}"
            if name in ("pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath"):
                return "pathlib.Path"
            return name + "()"
        return ""

    def text(  # noqa: C901 - one arm per kind of expression it can evaluate
            self, node: ast.AST | None, depth: int = 0) -> str:
        """The string or path an expression evaluates to; run-time parts become `$?`."""
        if node is None or depth > 8:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else str(node.value)
        if isinstance(node, ast.Attribute) and self.qualname(node) == "sys.executable":
            return "python3"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return re.sub(r"%[-#0 +]*\d*(\.\d+)?[sdrifx]", UNKNOWN, self.text(node.left, depth + 1))
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
            items = [self.text(e, depth + 1) for e in node.elts]
            return next((i for i in items if paths.is_wide(i) or paths.is_system(i)
                         or paths.is_secret(i)), items[0])
        if isinstance(node, ast.JoinedStr):
            return "".join(self.text(v if isinstance(v, ast.Constant) else v.value, depth + 1)
                           if isinstance(v, (ast.Constant, ast.FormattedValue)) else UNKNOWN
                           for v in node.values)
        if isinstance(node, ast.Attribute) and self.qualname(node) in ("os.sep", "os.path.sep"):
            return "/"
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            hidden = self.decoder.decode(node)
            return hidden if hidden not in (None, DECODED) else UNKNOWN
        if isinstance(node, ast.Name):
            value = self.values.get(node.id)
            return self.text(value, depth + 1) if value is not None else UNKNOWN
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Div)):
            sep = "/" if isinstance(node.op, ast.Div) else ""
            return self.text(node.left, depth + 1) + sep + self.text(node.right, depth + 1)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return "-" + self.text(node.operand, depth + 1)
        if isinstance(node, ast.Subscript):
            argv = self.values.get("sys.argv")
            if self.qualname(node.value) == "sys.argv" and isinstance(argv, ast.List) and \
                    isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
                index = node.slice.value
                return self.text(argv.elts[index], depth + 1) if index < len(argv.elts) else UNKNOWN
            if self.qualname(node.value) == "os.environ":
                return "~" if self.text(node.slice, depth + 1) == "HOME" else UNKNOWN
            listed = self.values.get(node.value.id) if isinstance(node.value, ast.Name) else None
            listed = listed if listed is not None else node.value
            if isinstance(listed, ast.Call) and self.qualname(listed.func) in LISTINGS:
                return self.text(listed, depth + 1)  # an entry of a listing: the pattern
            return UNKNOWN
        if isinstance(node, ast.Call):
            name = self.qualname(node.func)
            args = [self.text(a, depth + 1) for a in node.args]
            if name in ("pathlib.Path.home", "os.path.expanduser") and not args:
                return "~"
            if name in ("os.getenv", "os.environ.get") and args[:1] == ["HOME"]:
                return "~"
            if name in ("os.getenv", "os.environ.get") and len(args) > 1:
                return args[1]  # usually unset (XDG_CONFIG_HOME): the default is what counts
            if name in ("os.path.join", "pathlib.Path", "pathlib.PurePath", "posixpath.join"):
                return "/".join(args) if args else "."
            if name.endswith((".joinpath", ".joinpath()")) and isinstance(node.func, ast.Attribute):
                return "/".join([self.text(node.func.value, depth + 1), *args])
            if name in ("os.path.expanduser", "os.path.expandvars", "os.path.abspath", "str",
                        "glob.glob", "glob.iglob", "sorted",
                        "os.path.realpath", "os.path.normpath", "os.fspath") and args:
                return args[0]
            if isinstance(node.func, ast.Attribute) and node.func.attr in (
                    "expanduser", "resolve", "absolute", "strip", "format"):
                return self.text(node.func.value, depth + 1)
            return self._listing(node, name, args, depth)
        return UNKNOWN

    def _listing(self, node: ast.Call, name: str, args: list[str], depth: int) -> str:
        """What a folder listing yields: `R/*` for its entries, `R/**` for every file
        under it (`**/PATTERN` when a pattern picks some)."""
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name == "os.listdir":
            return "*"  # names, joined to the folder by the code
        if name == "os.scandir" or (method == "iterdir" and isinstance(node.func, ast.Attribute)):
            root = args[0] if name.startswith("os.") and args else (
                self.text(node.func.value, depth + 1)
                if method == "iterdir" and isinstance(node.func, ast.Attribute) else ".")
            return f"{root}/*"
        if name == "os.walk":
            return f"{args[0] if args else '.'}/{paths.EVERY}"
        if method in ("glob", "rglob") and isinstance(node.func, ast.Attribute) and args and \
                not name.startswith("glob."):
            root, pattern = self.text(node.func.value, depth + 1), args[0]
            if method == "rglob" or pattern.startswith("**"):
                pattern = pattern.lstrip("*/")
                return f"{root}/{paths.EVERY}" + (f"/{pattern}" if pattern not in ("", "*")
                                                  else "")
            return f"{root}/{pattern}"
        return UNKNOWN

    def part(self, node: ast.AST) -> str:
        """The code of a node (ast.get_source_segment splits the whole text on every call)."""
        line, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        column, end_column = getattr(node, "col_offset", 0), getattr(node, "end_col_offset", 0)
        if line is None or end is None:
            return ast.dump(node)[:60]
        lines = [text.encode() for text in self.lines[line - 1 : end]]
        if not lines:
            return ast.dump(node)[:60]
        if len(lines) == 1:
            return lines[0][column:end_column].decode(errors="replace")
        lines[0], lines[-1] = lines[0][column:], lines[-1][:end_column]
        return b"".join(lines).decode(errors="replace")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name.split(".")[0]] = (
                alias.name if alias.asname else alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.values[target.id] = node.value
            elif isinstance(target, ast.Attribute) and self.qualname(target) == "sys.argv":
                self.values["sys.argv"] = node.value
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and node.value is not None:
            self.values[node.target.id] = node.value
        self.generic_visit(node)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
                       ) -> None:
        """Its loops first (they bind the names), then what it makes of them."""
        for generator in node.generators:
            self.visit(generator)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            self.visit(part)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_comprehension(self, node: ast.comprehension) -> None:
        if isinstance(node.target, ast.Name):
            self.values[node.target.id] = node.iter
        self.generic_visit(node)

    def bind_parameters(self, tree: ast.AST) -> None:
        """A function's parameters take the values of the first call to it in the snippet,
        so `def clean(folder): ...` then `clean(Path.home())` is read as cleaning home."""
        nodes = list(ast.walk(tree))
        functions = {f.name: f for f in nodes
                     if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for call in nodes if functions else ():
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and \
                    call.func.id in functions:
                params = functions.pop(call.func.id).args.args
                for param, arg in zip(params, call.args, strict=False):
                    self.values.setdefault(param.arg, arg)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            if isinstance(item.optional_vars, ast.Name):
                self.values[item.optional_vars.id] = item.context_expr
        self.generic_visit(node)
