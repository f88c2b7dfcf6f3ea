"""Text hidden by encoding in Python code, decoded the way the code itself would at run time.

Only pure, bounded transformations of constants are done (base64 and friends, hex, rot13,
reversal, `chr` joins, zlib): nothing runs. `decode` answers the text when it can be
worked out, DECODED when the code decodes something it cannot follow, None when nothing
is decoded at all.
"""

from __future__ import annotations

import ast
import base64
import binascii
import bz2
import codecs
import gzip
import lzma
import zlib
from collections.abc import Callable

DECODED = "$?DEC"
LIMIT = 100_000  # characters: decoded text past this is not worth reading statically

BYTES: dict[str, Callable[[bytes], bytes]] = {
    "base64.b64decode": base64.b64decode, "base64.standard_b64decode": base64.b64decode,
    "base64.urlsafe_b64decode": base64.urlsafe_b64decode, "base64.b32decode": base64.b32decode,
    "base64.b16decode": base64.b16decode, "base64.a85decode": base64.a85decode,
    "base64.b85decode": base64.b85decode, "base64.decodebytes": base64.decodebytes,
    "binascii.a2b_base64": binascii.a2b_base64, "binascii.unhexlify": binascii.unhexlify,
    "binascii.a2b_hex": binascii.a2b_hex, "bytes.fromhex": lambda b: bytes.fromhex(b.decode()),
    "zlib.decompress": zlib.decompress, "gzip.decompress": gzip.decompress,
    "bz2.decompress": bz2.decompress, "lzma.decompress": lzma.decompress,
}
CODECS = {"rot13", "rot_13", "hex", "hex_codec", "base64", "base64_codec", "zlib", "bz2",
          "uu", "utf-16", "utf-16le", "utf-16be", "utf-8", "latin-1", "ascii", "unicode_escape"}
DECODER_NAMES = {*BYTES, "codecs.decode", "marshal.loads", "pickle.loads"}


class Decoder:
    """Decodes expressions of one module; `qualname` and `values` come from its reader."""

    def __init__(self, qualname: Callable[[ast.AST], str], values: dict[str, ast.expr]) -> None:
        self.qualname = qualname
        self.values = values

    def decode(self, node: ast.AST | None) -> str | None:
        try:
            value = self._value(node, 0)
        except (ValueError, TypeError, LookupError, binascii.Error, zlib.error, OSError,
                EOFError, lzma.LZMAError, RecursionError):
            return DECODED
        if isinstance(value, _Hidden):
            return value.text
        return None

    def uses_decoder(self, node: ast.AST) -> bool:
        """Whether an expression, or a variable it names, goes through a decoder."""
        return self.decode(node) is not None

    def _value(self, node: ast.AST | None, depth: int) -> object:
        """A constant's value, wrapped in _Hidden once a decoder has touched it."""
        if node is None or depth > 12:
            return None
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = self._value(node.operand, depth + 1)
            return -operand if isinstance(operand, int) else None
        if isinstance(node, ast.Name):
            value = self.values.get(node.id)
            return self._value(value, depth + 1) if value is not None else None
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self._value(e, depth + 1) for e in node.elts]
            return items if all(isinstance(i, (int, str, bytes)) for i in items) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _join([self._value(node.left, depth + 1), self._value(node.right, depth + 1)])
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            step = self._value(node.slice.step, depth + 1) if node.slice.step else None
            if step == -1 and node.slice.lower is None and node.slice.upper is None:
                return _reverse(self._value(node.value, depth + 1))
            return None
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            return self._chr_comprehension(node, depth)
        return None

    def _call(self, node: ast.Call, depth: int) -> object:
        name = self.qualname(node.func)
        args = [self._value(a, depth + 1) for a in node.args]
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        receiver = (self._value(node.func.value, depth + 1)
                    if isinstance(node.func, ast.Attribute) else None)
        if name in BYTES and args:
            return _Hidden(BYTES[name](_bytes(args[0])))
        if name == "codecs.decode" and args:
            codec = str(args[1] if len(args) > 1 else "utf-8").lower()
            if codec not in CODECS:
                return _Hidden(DECODED)
            if codec.startswith("rot"):
                return _Hidden(codecs.decode(_text(args[0]), "rot13"))  # every rot name is rot13
            return _Hidden(codecs.decode(_bytes(args[0]), codec))
        if name in ("marshal.loads", "pickle.loads"):
            return _Hidden(DECODED)
        if method == "decode" and receiver is not None:
            return _wrap(receiver, lambda v: _bytes(v).decode(str(args[0]) if args else "utf-8"))
        if method == "join" and isinstance(receiver, str) and args:
            return _join_with(receiver, args[0])
        if method == "encode" and receiver is not None:
            return _wrap(receiver, lambda v: _text(v).encode())
        if name in ("bytes", "bytearray") and args and isinstance(args[0], (list, _Hidden)):
            return _Hidden(_bytes(args[0]))
        if name == "chr" and args and isinstance(args[0], int):
            return _Hidden(chr(args[0]))
        if name == "map" and len(node.args) == 2 and self.qualname(node.args[0]) == "chr":
            items = args[1]
            return _Hidden("".join(chr(i) for i in items)) if isinstance(items, list) else None
        if name in ("str",) and args:
            return args[0]
        if name == "reversed" and args:
            return _reverse(args[0])
        return None

    def _chr_comprehension(self, node: ast.GeneratorExp | ast.ListComp, depth: int) -> object:
        """`chr(c) for c in [...]`, `chr(c ^ k)`, `b ^ k for b in blob`: characters or byte
        values computed from constants, joined by the caller."""
        if len(node.generators) != 1:
            return None
        elt, target = node.elt, node.generators[0].target
        as_chr = isinstance(elt, ast.Call) and self.qualname(elt.func) == "chr" and elt.args
        if not as_chr and not isinstance(elt, ast.BinOp):
            return None
        items = self._value(node.generators[0].iter, depth + 1)
        if isinstance(items, (str, bytes)):
            items = list(items.encode() if isinstance(items, str) else items)
        if not isinstance(items, list):
            return _Hidden(DECODED)
        keys = {n.id: self._value(n, depth + 1) for n in ast.walk(elt) if isinstance(n, ast.Name)}
        expr = elt.args[0] if as_chr and isinstance(elt, ast.Call) else elt
        codes = [_code_of(expr, target, i, keys) for i in items]
        return _Hidden("".join(chr(c) for c in codes) if as_chr else codes)


class _Hidden:
    """A value that came out of a decoder."""

    def __init__(self, value: object) -> None:
        self.value = value
        self.text = _as_text(value)


def _as_text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")[:LIMIT]
    if isinstance(value, list):
        return "".join(str(v) for v in value)[:LIMIT]
    return str(value)[:LIMIT] if value is not None else DECODED


def _code_of(expr: ast.expr, target: ast.expr, item: object, keys: dict[str, object]) -> int:
    """c, or c ^ K / c - K / c + K (K a constant or a name bound to one), for one item."""
    if not isinstance(item, int):
        raise TypeError("not a code point")
    if isinstance(expr, ast.Name):
        return item
    if isinstance(expr, ast.BinOp) and isinstance(expr.left, ast.Name) and \
            isinstance(target, ast.Name) and expr.left.id == target.id:
        key = expr.right.value if isinstance(expr.right, ast.Constant) else (
            keys.get(expr.right.id) if isinstance(expr.right, ast.Name) else None)
        if isinstance(key, int):
            operations = {ast.BitXor: item ^ key, ast.Sub: item - key, ast.Add: item + key}
            for kind, result in operations.items():
                if isinstance(expr.op, kind):
                    return result
    raise TypeError("not a simple character code")


def _bytes(value: object) -> bytes:
    if isinstance(value, _Hidden):
        value = value.value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bytes):
        return value
    if isinstance(value, list):
        return bytes(value)
    raise TypeError("not bytes")


def _text(value: object) -> str:
    if isinstance(value, _Hidden):
        value = value.value
    return value.decode() if isinstance(value, bytes) else str(value)


def _wrap(value: object, change: Callable[[object], object]) -> object:
    if isinstance(value, _Hidden):
        return _Hidden(change(value.value))
    return change(value) if value is not None else None


def _reverse(value: object) -> object:
    if isinstance(value, _Hidden):
        return _Hidden(_reverse(value.value))
    if isinstance(value, (str, bytes, list)):
        return _Hidden(value[::-1])
    return None


def _join(parts: list[object]) -> object:
    hidden = any(isinstance(p, _Hidden) for p in parts)
    raw = [p.value if isinstance(p, _Hidden) else p for p in parts]
    if all(isinstance(p, str) for p in raw):
        joined: object = "".join(raw)  # type: ignore[arg-type]
    elif all(isinstance(p, bytes) for p in raw):
        joined = b"".join(raw)  # type: ignore[arg-type]
    else:
        return _Hidden(DECODED) if hidden else None
    return _Hidden(joined) if hidden else joined


def _join_with(separator: str, items: object) -> object:
    hidden = isinstance(items, _Hidden)
    raw = items.value if isinstance(items, _Hidden) else items
    if isinstance(raw, list) and all(isinstance(i, str) for i in raw):
        return _Hidden(separator.join(raw)) if hidden else separator.join(raw)
    return _Hidden(DECODED) if hidden else None
