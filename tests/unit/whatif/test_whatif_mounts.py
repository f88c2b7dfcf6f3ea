"""Mounts read from mountinfo and named as a person calls them, and which of the mounts a
preview could not cover a run reaches."""

from __future__ import annotations

from assistant.whatif.mounts import current, parse
from assistant.whatif.uncovered import reached

LINES = "\n".join([
    r"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw",
    r"63 27 0:39 / /home/ann/My\040Drive rw,nosuid,nodev - fuse.rclone gdrive: rw,user_id=1000",
    r"64 27 0:40 / /tmp/ram ro,relatime - tmpfs tmpfs rw",
    r"65 27 254:0 /srv/books /home/ann/shelf ro,relatime shared:1 - ext4 /dev/vda rw",
    r"66 27 0:41 / /home/ann/box rw - overlay overlay rw,lowerdir=/l",
    r"67 27 0:42 / /home/ann/nas rw - nfs4 nas:/export rw",
    r"68 64 0:43 / /tmp/ram rw - tmpfs tmpfs rw",
    r"69 27 0:44 / /tmp/.mount_Appxy rw,nosuid - fuse.App.AppImage App.AppImage ro,user_id=1000",
])


def test_each_mount_is_named_by_what_it_is() -> None:
    kinds = {mount.point: mount.kind for mount in parse(LINES)}
    assert kinds == {"/": "an ext4 mount", "/home/ann/My Drive": "a FUSE mount",
                     "/tmp/ram": "a tmpfs",  # the later one, on top, is read-write
                     "/home/ann/shelf": "a read-only bind mount (ext4)",
                     "/home/ann/box": "an overlay mount",
                     "/home/ann/nas": "a network mount (nfs4)",
                     "/tmp/.mount_Appxy": "a read-only FUSE mount"}  # its filesystem is


def test_this_process_has_a_root_mount() -> None:
    assert any(mount.point == "/" for mount in current())


UNCOVERED = [{"path": "/home/ann/box", "kind": "an overlay mount", "why": "stacked"},
             {"path": "/home/ann/work/big.iso", "kind": "a large file beside a mount",
              "why": "read-only", "file": "yes"}]


def reaches(code: str, cwd: str = "/home/ann/work", output: str = "") -> list[str]:
    return [m["path"] for m in reached(UNCOVERED, code, output, cwd, "/home/ann")]


def test_a_mount_is_reached_when_named_or_around_the_working_folder() -> None:
    assert reaches("ls") == []
    assert reaches("cp a ~/box/") == ["/home/ann/box"]
    assert reaches("ls", output="/home/ann/box/x: Read-only file system") == ["/home/ann/box"]
    assert reaches("ls", cwd="/home/ann") == ["/home/ann/box"]  # `rm -r *` there reaches it
    assert reaches("ls", cwd="/home/ann/box/sub") == ["/home/ann/box"]


def test_a_file_is_reached_only_when_named_as_itself() -> None:
    assert reaches("rm ./big.iso") == ["/home/ann/work/big.iso"]
    assert reaches("rm big.iso.part other/big.iso notbig.iso") == []
