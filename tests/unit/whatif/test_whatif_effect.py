"""From raw overlay changes to an effect: moves, renamed folders, paths, the sentence."""

from __future__ import annotations

from typing import Any

from assistant.whatif.effect import effect_of, human_size


def file(path: str, change: str, sha: str, size: int = 4) -> dict[str, Any]:
    return {"path": path, "change": change, "kind": "file", "sha": sha, "size": size,
            "mode": 0o644}


def folder(path: str, change: str) -> dict[str, Any]:
    return {"path": path, "change": change, "kind": "dir", "mode": 0o755}


def test_files_moved_into_a_new_folder_are_moves_and_the_sentence_names_them() -> None:
    changes = [file("/w/a.log", "deleted", "1"), file("/w/b.log", "deleted", "2"),
               folder("/w/old", "created"), file("/w/old/a.log", "created", "1"),
               file("/w/old/b.log", "created", "2")]
    effect = effect_of(changes, "/w", 0, "", [])
    assert effect.created == ("old/",)
    assert effect.deleted == ()
    assert effect.moved == (("a.log", "old/a.log"), ("b.log", "old/b.log"))
    assert effect.summary == "Moves 2 files (a.log, b.log) into a new folder, old."


def test_a_renamed_folder_is_one_pair_plus_each_file() -> None:
    changes = [folder("/w/a", "deleted"), file("/w/a/x", "deleted", "1"),
               folder("/w/b", "created"), file("/w/b/x", "created", "1")]
    effect = effect_of(changes, "/w", 0, "", [])
    assert effect.moved == (("a/", "b/"), ("a/x", "b/x"))
    assert effect.created == effect.deleted == ()
    assert effect.summary == "Renames folder a to b."


def test_a_copy_is_created_and_a_changed_move_is_a_delete_and_a_create() -> None:
    copied = effect_of([file("/w/c", "created", "1")], "/w", 0, "", [])
    assert copied.created == ("c",)
    changed = effect_of([file("/w/a", "deleted", "1"), file("/w/b", "created", "2")],
                        "/w", 0, "", [])
    assert changed.moved == ()
    assert (changed.created, changed.deleted) == (("b",), ("a",))


def test_a_move_over_an_existing_file_is_a_move_only() -> None:
    changes = [file("/w/new.txt", "deleted", "1"), file("/w/old.txt", "modified", "1")]
    effect = effect_of(changes, "/w", 0, "", [])
    assert effect.moved == (("new.txt", "old.txt"),)
    assert effect.modified == ()


def test_paths_outside_the_working_folder_stay_absolute_and_sizes_add_up() -> None:
    changes = [file("/home/u/notes.txt", "deleted", "1", 1500),
               file("/w/sub/x", "deleted", "2", 2000)]
    effect = effect_of(changes, "/w", 2, "boom", ["uses the network"])
    assert effect.deleted == ("/home/u/notes.txt", "sub/x")
    assert effect.sizes == {"/home/u/notes.txt": 1500, "sub/x": 2000}
    assert effect.summary == ("Deletes 2 files (/home/u/notes.txt, sub/x; 3.5 KB) and fails "
                              "with exit status 2.")
    assert effect.unpreviewable == ("uses the network",)


def test_no_change_says_so() -> None:
    assert effect_of([], "/w", 0, "hi\n", []).summary == "Changes no files."
    assert human_size(1) == "1 byte"
    assert human_size(2_500_000) == "2.5 MB"


def test_a_deleted_folder_is_said_with_its_files_and_home_as_a_tilde(monkeypatch: Any) -> None:
    monkeypatch.setenv("HOME", "/home/ada")
    changes = [folder("/home/ada/Downloads/old", "deleted"),
               folder("/home/ada/Downloads/old/deep", "deleted"),
               file("/home/ada/Downloads/old/a.zip", "deleted", "1", 3_000_000),
               file("/home/ada/Downloads/old/deep/b.tar", "deleted", "2", 400_000),
               file("/w/notes.txt", "deleted", "3", 12)]
    effect = effect_of(changes, "/w", 0, "", [])
    assert effect.deleted == ("/home/ada/Downloads/old/", "/home/ada/Downloads/old/a.zip",
                              "/home/ada/Downloads/old/deep/", "/home/ada/Downloads/old/deep/b.tar",
                              "notes.txt")  # the lists keep every path, absolute outside /w
    assert effect.summary == ("Deletes the folder ~/Downloads/old and the 2 files in it "
                              "(3.4 MB) and deletes 1 file (notes.txt; 12 bytes).")


def test_deleted_folders_say_how_many_and_an_empty_one_has_no_contents() -> None:
    two = [folder("/w/a", "deleted"), folder("/w/b", "deleted"), file("/w/a/x", "deleted", "1"),
           file("/w/b/y", "deleted", "2")]
    assert effect_of(two, "/w", 0, "", []).summary == (
        "Deletes 2 folders (a, b) and the 2 files in them (8 bytes).")
    empty = [folder("/w/a", "deleted")]
    assert effect_of(empty, "/w", 0, "", []).summary == "Deletes the folder a."


def test_moves_into_a_folder_of_home_name_it_with_a_tilde(monkeypatch: Any) -> None:
    monkeypatch.setenv("HOME", "/home/ada")
    changes = [file("/w/a.pdf", "deleted", "1"), file("/home/ada/papers/a.pdf", "created", "1")]
    assert effect_of(changes, "/w", 0, "", []).summary == \
        "Moves 1 file (a.pdf) into ~/papers."
