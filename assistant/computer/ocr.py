"""Offline text reading: rapidocr (models inside the wheel), tesseract when it is missing.

Detection runs once per screen content (cached by a hash of the pixels); recognition runs
only on the boxes that can hold the text asked for, and on the rest only when those do
not hold it exactly. Nothing ever leaves the machine.
"""

from __future__ import annotations

import hashlib
import math
import shutil
import subprocess
import threading
from collections import OrderedDict
from typing import Any

from assistant.computer import textmatch
from assistant.computer.capability import INSTALL_HINT, Unavailable

_CACHE_SIZE = 4
_GAP = 12  # rows without text that still keep two lines in one band
_PAD = 6
_DETECT_SIDE = 1280  # crops larger than this are shrunk for detection only
# A box is about _INTERCEPT + _PER_CHAR * characters box heights wide; _FITS and _SAME are
# how far (log of the ratio) a box may be from the expected shape, or from a found copy.
_INTERCEPT, _PER_CHAR, _FITS, _SAME, _SAME_HEIGHT = 0.3, 0.35, 0.6, 0.12, 0.2
_BATCH = 4  # small: the likeliest boxes usually hold the text, and each batch is a pause
_lock = threading.Lock()
_engines: dict[str, Any] = {}
_cache: OrderedDict[str, _Screen] = OrderedDict()
# Parts of screens seen before, by their pixels: after a click usually little changes,
# so only the bands and words that did are detected and read again.
_bands: OrderedDict[str, list[list[int]]] = OrderedDict()
_words: OrderedDict[str, tuple[str, float]] = OrderedDict()
_BANDS_KEPT, _WORDS_KEPT = 256, 4096


def _digest(array: Any) -> str:
    return hashlib.blake2b(array.tobytes(), digest_size=16).hexdigest() + repr(array.shape)


def _remember(store: OrderedDict[str, Any], key: str, value: Any, limit: int) -> None:
    with _lock:
        store[key] = value
        while len(store) > limit:
            store.popitem(last=False)


def forget() -> None:
    """Drop everything cached (screens, detected bands, read words): the next read is cold."""
    with _lock:
        for store in (_cache, _bands, _words):
            store.clear()


def warm() -> bool:
    """Whether an engine is loaded in this process, so a read costs no start-up."""
    return bool(_engines)


class _Screen:
    """Detection boxes of one screen image, and the texts read in them so far."""

    def __init__(self, pixels: Any, boxes: list[list[int]]) -> None:
        self.pixels = pixels
        self.boxes = boxes
        self.texts: dict[int, tuple[str, float]] = {}

    def items(self) -> list[dict[str, Any]]:
        found = []
        for n, box in enumerate(self.boxes):
            text, score = self.texts.get(n, ("", 0.0))
            if text.strip():
                found.append({"text": text.strip(), "box": box, "score": round(score, 3)})
        for number, item in enumerate(found, start=1):
            item["id"] = number
        return found


def engine_name() -> str:
    """Which engine reads text here: "rapidocr" or "tesseract"."""
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        if shutil.which("tesseract"):
            return "tesseract"
        raise Unavailable(f"no OCR engine: rapidocr-onnxruntime is not installed ({INSTALL_HINT}),"
                          " nor is tesseract (sudo apt-get install tesseract-ocr)") from None
    return "rapidocr"


def _rapid() -> Any:
    with _lock:
        if "rapidocr" not in _engines:
            from rapidocr_onnxruntime import RapidOCR

            # One thread: on a busy machine more threads spin and wait far more than they gain.
            engine = RapidOCR(use_cls=False, intra_op_num_threads=1, inter_op_num_threads=1)
            engine.text_det.limit_type = "max"  # never enlarge screen crops before detection
            # Pad short texts to a square, not to 320 pixels: a third of the work on screens.
            engine.text_rec.rec_image_shape = [3, 48, 48]
            _engines["rapidocr"] = engine
        return _engines["rapidocr"]


def reading_order(boxes: list[list[int]]) -> list[list[int]]:
    """Top to bottom by lines (boxes whose middles are within half a height), then left to right."""
    lines: list[list[list[int]]] = []
    for box in sorted(boxes, key=lambda b: b[1] + b[3] / 2):
        middle = box[1] + box[3] / 2
        if lines:
            last = lines[-1][0]
            if abs(middle - (last[1] + last[3] / 2)) <= max(last[3], box[3]) / 2:
                lines[-1].append(box)
                continue
        lines.append([box])
    return [box for line in lines for box in sorted(line, key=lambda b: b[0])]


def regions(pixels: Any) -> list[tuple[int, int, int, int]]:
    """Bands of the screen that can hold text (left, top, right, bottom): rows with several
    sharp horizontal edges, merged when close. Empty desktop and plain areas are skipped."""
    import numpy

    green = pixels[:, :, 1].astype(numpy.int16)  # enough to see the edges of glyphs
    edges = numpy.abs(numpy.diff(green, axis=1)) > 24
    rows = numpy.flatnonzero(edges.sum(axis=1) >= 4)
    if rows.size == 0:
        return []
    height, width = green.shape
    bands, start, end = [], rows[0], rows[0]
    for row in rows[1:]:
        if row - end > _GAP:
            bands.append((start, end))
            start = row
        end = row
    bands.append((start, end))
    found = []
    for top, bottom in bands:
        top, bottom = max(0, top - _PAD), min(height, bottom + _PAD + 1)
        cols = numpy.flatnonzero(edges[top:bottom].any(axis=0))
        # Column edges on a 32-pixel grid: a band keeps its origin while its words change
        # elsewhere, so the detector finds the same boxes and the word cache hits.
        left = max(0, cols[0] - _PAD) // 32 * 32
        right = min(width, -(-(cols[-1] + _PAD + 2) // 32) * 32)
        found.append((int(left), int(top), int(right), int(bottom)))
    return found


def _detect(pixels: Any) -> list[list[int]]:
    """Text boxes in screen pixels. Large regions are shrunk for detection only (finding
    where text is survives it; reading it does not, so recognition uses full pixels)."""
    import cv2
    import numpy

    detector = _rapid().text_det
    boxes: list[Any] = []
    for left, top, right, bottom in regions(pixels):
        part = numpy.ascontiguousarray(pixels[top:bottom, left:right])
        key = _digest(part)
        found = _bands.get(key)
        if found is None:
            found = []
            scale = min(1.0, _DETECT_SIDE / max(part.shape[:2]))
            if scale < 1.0:
                size = (round(part.shape[1] * scale), round(part.shape[0] * scale))
                part = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
            # The detector works on sides that are multiples of 32: pad rather than resize.
            high, wide = part.shape[:2]
            part = cv2.copyMakeBorder(part, 0, -high % 32, 0, -wide % 32, cv2.BORDER_REPLICATE)
            quads, _ = detector(part)
            for quad in [] if quads is None else quads:
                xs, ys = [int(p[0] / scale) for p in quad], [int(p[1] / scale) for p in quad]
                x0, y0 = max(0, min(xs)), max(0, min(ys))
                if max(xs) - x0 > 2 and max(ys) - y0 > 2:
                    found.append([x0, y0, max(xs) - x0, max(ys) - y0])
            _remember(_bands, key, found, _BANDS_KEPT)
        boxes.extend([x + left, y + top, w, h] for x, y, w, h in found)
    return reading_order(boxes)


def _recognize(screen: _Screen, numbers: list[int]) -> None:
    todo = [n for n in numbers if n not in screen.texts]
    if not todo:
        return
    unread: list[tuple[int, str, Any]] = []
    for n in todo:
        x, y, w, h = screen.boxes[n]
        crop = screen.pixels[y : y + h, x : x + w]
        key = _digest(crop)
        if key in _words:
            screen.texts[n] = _words[key]
        else:
            unread.append((n, key, crop))
    if not unread:
        return
    results, _ = _rapid().text_rec([crop for _, _, crop in unread])
    for (n, key, _), (text, score) in zip(unread, results, strict=True):
        screen.texts[n] = (text, float(score))
        _remember(_words, key, screen.texts[n], _WORDS_KEPT)


def _screen(image: Any) -> _Screen:
    import numpy

    rgb = image.convert("RGB")
    pixels = numpy.ascontiguousarray(numpy.asarray(rgb)[:, :, ::-1])
    key = _digest(pixels)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    screen = _Screen(pixels, _detect(pixels))
    _remember(_cache, key, screen, _CACHE_SIZE)
    return screen


def _ratio(box: list[int]) -> float:
    return box[2] / max(1, box[3])


def _per_char(screen: _Screen) -> float:
    """Box width per character, in box heights, as read so far on this screen."""
    samples = sorted((_ratio(screen.boxes[n]) - _INTERCEPT) / len(text.strip())
                     for n, (text, _) in screen.texts.items() if len(text.strip()) >= 3)
    return samples[len(samples) // 2] if samples else _PER_CHAR


def _same_shape(box: list[int], other: list[int]) -> bool:
    """Whether two boxes could hold the same text in the same font."""
    return (abs(math.log(_ratio(box) / _ratio(other))) <= _SAME
            and abs(math.log(box[3] / other[3])) <= _SAME_HEIGHT)


def _search(screen: _Screen, query: str) -> bool:
    """Read the boxes shaped like `query` alone, likeliest first; True once every exact
    match is read. Copies of one text in one font have one shape (ratio and height), so
    once one is found only boxes of that shape are left to read."""
    chars = len(query)
    todo = [n for n in range(len(screen.boxes)) if n not in screen.texts]
    found: list[list[int]] = []
    while todo:
        expected = _per_char(screen) * chars + _INTERCEPT
        if found:
            todo = [n for n in todo if any(_same_shape(screen.boxes[n], box) for box in found)]
        else:
            todo = [n for n in todo if abs(math.log(_ratio(screen.boxes[n]) / expected)) <= _FITS]
        todo.sort(key=lambda n: abs(math.log(_ratio(screen.boxes[n]) / expected)))
        batch, todo = todo[:_BATCH], todo[_BATCH:]
        _recognize(screen, batch)
        found = [screen.boxes[n] for n, (text, _) in screen.texts.items()
                 if textmatch.normalize(text) == query]
    return bool(found)


def read(image: Any, query: str | None = None) -> list[dict[str, Any]]:
    """Texts in a PIL image with boxes [x, y, w, h] in its pixels, in reading order.

    With `query`, when the text is on screen exactly, only boxes that can hold it are read.
    """
    if engine_name() == "tesseract":
        return tesseract_read(image)
    screen = _screen(image)
    if query is not None and _search(screen, textmatch.normalize(query)):
        return screen.items()
    _recognize(screen, list(range(len(screen.boxes))))
    return screen.items()


def tesseract_read(image: Any) -> list[dict[str, Any]]:
    """Words grouped into lines with `tesseract --psm 11` (sparse text such as buttons)."""
    import io

    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    done = subprocess.run(["tesseract", "stdin", "stdout", "--psm", "11", "tsv"],
                          input=buffer.getvalue(), capture_output=True, timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"tesseract failed: {done.stderr.decode(errors='replace').strip()}")
    lines: dict[tuple[str, ...], dict[str, Any]] = {}
    for row in done.stdout.decode(errors="replace").splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or not cols[11].strip() or float(cols[10]) < 30:
            continue
        x, y, w, h = (int(v) for v in cols[6:10])
        key = tuple(cols[1:5])
        line = lines.setdefault(key, {"words": [], "box": [x, y, x + w, y + h], "scores": []})
        line["words"].append(cols[11])
        line["scores"].append(float(cols[10]) / 100)
        b = line["box"]
        line["box"] = [min(b[0], x), min(b[1], y), max(b[2], x + w), max(b[3], y + h)]
    items = []
    for line in lines.values():
        x0, y0, x1, y1 = line["box"]
        items.append({"text": " ".join(line["words"]), "box": [x0, y0, x1 - x0, y1 - y0],
                      "score": round(min(line["scores"]), 3)})
    order = {id(box): n for n, box in enumerate(reading_order([i["box"] for i in items]))}
    items.sort(key=lambda i: order[id(i["box"])])
    for number, item in enumerate(items, start=1):
        item["id"] = number
    return items
