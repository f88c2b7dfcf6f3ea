"""Whether Python code can write anything, read from its text alone: a preview's shortcut.

Code built only of literals, arithmetic, its own variables, a few builtins that compute
(print, len, sorted ...) and a few standard modules that only compute (math, json, re,
datetime ...) cannot change a file, start a program or reach the network: it has nothing
to do it with. Its preview then needs no copy-on-write folders, only a world where
everything is read-only (world.py), which costs a fraction of one that overlays home,
the working folder and /tmp mount by mount. A misreading here cannot reach a real file:
that world refuses every write.

The reading is a list of what is allowed, never of what is dangerous: anything not on it
(open, getattr, a def, an attribute starting with "_", a name the code did not bind,
which an earlier run may have bound to anything) makes the code "may write". The names
it relies on are returned, so the runtime can check that no earlier run rebound them.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import types
from dataclasses import dataclass

BUILTINS = frozenset({
    "print", "len", "range", "sum", "min", "max", "abs", "round", "sorted", "reversed",
    "enumerate", "zip", "map", "filter", "list", "dict", "set", "frozenset", "tuple", "str",
    "int", "float", "bool", "complex", "repr", "ascii", "any", "all", "divmod", "pow",
    "chr", "ord", "hex", "oct", "bin", "format", "isinstance", "hash", "iter", "next",
    "slice", "bytes",
})
"""Builtins that only compute on the values given them."""
EXCEPTIONS = frozenset(name for name, value in vars(builtins).items()
                       if isinstance(value, type) and issubclass(value, BaseException))
MODULES = frozenset({
    "math", "cmath", "statistics", "decimal", "fractions", "itertools", "collections",
    "random", "datetime", "calendar", "json", "re", "textwrap", "time",
})
"""Standard modules whose functions and classes only compute (json.dump needs a file,
and no file can be had here). Not `string` (its Formatter looks attributes up by name)
nor `operator` (attrgetter, methodcaller)."""
INTERNALS = ("_", "gi_", "cr_", "ag_", "f_", "tb_", "co_")
"""Attributes that lead to a function's globals, a frame, code: from a generator's
gi_frame.f_globals the runtime's `os` is one step away."""
STATEMENTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.If, ast.For, ast.While, ast.Try,
              ast.Import, ast.ImportFrom, ast.Pass, ast.Break, ast.Continue, ast.Raise,
              ast.Assert)
EXPRESSIONS = (ast.Constant, ast.JoinedStr, ast.FormattedValue, ast.BinOp, ast.UnaryOp,
               ast.BoolOp, ast.Compare, ast.IfExp, ast.List, ast.Tuple, ast.Set, ast.Dict,
               ast.Subscript, ast.Slice, ast.Starred, ast.Name, ast.Call, ast.Attribute,
               ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.keyword,
               ast.comprehension, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
               ast.expr_context)


@dataclass(frozen=True)
class Reading:
    """Code that cannot write: the builtins and modules it uses, which the runtime checks
    are still the standard ones before it previews the code in a read-only world."""

    builtins: tuple[str, ...]
    modules: tuple[str, ...]


class _MayWrite(Exception):
    """Something not on the list: the code may write."""


def reading(code: str) -> Reading | None:
    """The reading of `code` when it cannot write; None when it may (or does not parse)."""
    try:
        tree = ast.parse(code)
        walker = _Walker()
        walker.block(tree.body, set())
    except (SyntaxError, ValueError, RecursionError, _MayWrite):
        return None
    return Reading(tuple(sorted(walker.builtins)), tuple(sorted(walker.modules)))


@functools.cache
def _exported(module: str, name: str) -> bool:
    """`module.name` is a function, class or value, never a module (json.codecs would
    reach everything codecs reaches)."""
    try:
        value = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return False
    return not isinstance(value, types.ModuleType)


class _Walker:
    """Walks statements in order, knowing which names the code has surely bound so far."""

    def __init__(self) -> None:
        self.builtins: set[str] = set()
        self.modules: set[str] = set()
        self.module_names: dict[str, str] = {}  # a name a module was ever bound to -> it

    def block(self, body: list[ast.stmt], bound: set[str]) -> set[str]:
        """Walk `body` with `bound` names; the names surely bound after it."""
        bound = set(bound)
        for statement in body:
            bound = self.statement(statement, bound)
        return bound

    def statement(self, node: ast.stmt, bound: set[str]) -> set[str]:
        if not isinstance(node, STATEMENTS):
            raise _MayWrite
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return bound | self.imported(node)
        if isinstance(node, ast.Assign):
            self.expression(node.value, bound)
            names = set()
            for target in node.targets:
                names |= self.target(target, bound)
            return bound | names
        if isinstance(node, ast.AugAssign):
            if not isinstance(node.target, (ast.Name, ast.Subscript)):
                raise _MayWrite
            self.target(node.target, bound)
            self.expression(node.value, bound)
            self.expression(_loaded(node.target), bound)
            return bound
        if isinstance(node, ast.If):
            self.expression(node.test, bound)
            both = self.block(node.body, bound) & self.block(node.orelse, bound)
            return bound | both
        if isinstance(node, ast.For):
            self.expression(node.iter, bound)
            self.block(node.body, bound | self.target(node.target, bound))
            self.block(node.orelse, bound)
            return bound
        if isinstance(node, ast.While):
            self.expression(node.test, bound)
            self.block(node.body, bound)
            self.block(node.orelse, bound)
            return bound
        if isinstance(node, ast.Try):
            self.block(node.body, bound)
            for handler in node.handlers:
                if handler.type is not None:
                    self.expression(handler.type, bound)
                self.block(handler.body, bound | ({handler.name} if handler.name else set()))
            self.block(node.orelse, bound)
            self.block(node.finalbody, bound)
            return bound
        for child in ast.iter_child_nodes(node):  # Expr, Raise, Assert, Pass ...
            self.expression(child, bound)
        return bound

    def imported(self, node: ast.Import | ast.ImportFrom) -> set[str]:
        names = set()
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in MODULES:
                    raise _MayWrite
                local = alias.asname or alias.name
                self.modules.add(alias.name)
                self.module_names[local] = alias.name
                names.add(local)
            return names
        if node.level or node.module not in MODULES:
            raise _MayWrite
        self.modules.add(node.module)
        for alias in node.names:
            if alias.name == "*" or alias.name.startswith(INTERNALS) or \
                    not _exported(node.module, alias.name):
                raise _MayWrite
            names.add(alias.asname or alias.name)
        return names

    def target(self, node: ast.expr, bound: set[str]) -> set[str]:
        """The names an assignment to `node` binds; a subscript only of the code's own."""
        if isinstance(node, ast.Name):  # a module's name stays one: `json = 1` in a branch
            return {node.id}
        if isinstance(node, (ast.Tuple, ast.List)):
            names: set[str] = set()
            for element in node.elts:
                names |= self.target(element, bound)
            return names
        if isinstance(node, ast.Starred):
            return self.target(node.value, bound)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                node.value.id in bound and node.value.id not in self.module_names:
            self.expression(node.slice, bound)
            return set()
        raise _MayWrite

    def expression(self, node: ast.AST, bound: set[str]) -> None:
        if not isinstance(node, EXPRESSIONS):
            raise _MayWrite
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = set(bound)
            for generator in node.generators:
                self.expression(generator.iter, inner)
                inner |= self.target(generator.target, inner)
                for condition in generator.ifs:
                    self.expression(condition, inner)
            parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for part in parts:
                self.expression(part, inner)
            return
        if isinstance(node, ast.Name):
            if node.id in self.module_names:  # a module as a value: `k = json; k.codecs`
                raise _MayWrite
            self.name(node.id, bound)
            return
        if isinstance(node, ast.Attribute):
            if node.attr.startswith(INTERNALS):
                raise _MayWrite
            base = node.value
            if isinstance(base, ast.Name) and base.id in self.module_names and \
                    base.id in bound:  # imported on every path to here
                if not _exported(self.module_names[base.id], node.attr):
                    raise _MayWrite
                return
        for child in ast.iter_child_nodes(node):
            self.expression(child, bound)

    def name(self, name: str, bound: set[str]) -> None:
        if name in bound:
            return
        if name in BUILTINS or name in EXCEPTIONS:
            self.builtins.add(name)
            return
        raise _MayWrite  # unbound here: an earlier run's, which may be anything


def _loaded(target: ast.expr) -> ast.expr:
    """An augmented assignment's target, read as the value it first is."""
    copy: ast.expr = ast.parse(ast.unparse(target), mode="eval").body
    return copy
