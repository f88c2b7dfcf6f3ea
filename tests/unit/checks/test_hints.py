"""Hints joined to a run's result where small models misread it: each fires on its own
failure, in the words of the code, and stays quiet elsewhere."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from assistant.checks.hints import describe_run
from assistant.events import RunEnd
from assistant.runtime.packages import python_packages
from tests.support.require import require


def test_a_missing_package_is_explained_where_pip_would_not_help() -> None:
    output = "Traceback (most recent call last):\nModuleNotFoundError: No module named 'pandas'\n"
    described = describe_run(RunEnd("a", 1, output, 0.1))
    assert described.endswith(f"pandas is not installed for the Python that runs your code, "
                              f"and pip would install it elsewhere: do it another way. "
                              f"{python_packages()}.")
    assert "pip" not in describe_run(RunEnd("a", 0, "ModuleNotFoundError: No module named "
                                                    "'x' is what we print\n", 0.1))


def test_writing_into_a_folder_not_there_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    python = "FileNotFoundError: [Errno 2] No such file or directory: 'notes/todo.txt'\n"
    (tmp_path / "elsewhere" / "notes").mkdir(parents=True)
    assert "folder" not in describe_run(RunEnd("a", 1, python, 0.1), "",
                                        str(tmp_path / "elsewhere"))
    assert describe_run(RunEnd("a", 1, python, 0.1)).endswith(
        "The folder notes does not exist (to write there, create it first: "
        "os.makedirs('notes', exist_ok=True), or mkdir -p notes).")
    shell = "bash: line 3: out/a.txt: No such file or directory\n"
    assert "mkdir -p out" in describe_run(RunEnd("a", 1, shell, 0.1))
    (tmp_path / "notes").mkdir()
    assert "folder" not in describe_run(RunEnd("a", 1, python, 0.1))
    plain = "FileNotFoundError: [Errno 2] No such file or directory: 'todo.txt'\n"
    assert "mkdir" not in describe_run(RunEnd("a", 1, plain, 0.1))
    pandas = ('    raise OSError(rf"Cannot save file into a non-existent directory: '
              "'{parent}'\")\nOSError: Cannot save file into a non-existent directory: "
              "'by_region'\n")
    assert "mkdir -p by_region" in describe_run(RunEnd("a", 1, pandas, 0.1))


def test_a_guessed_key_and_a_many_to_one_rename_are_explained() -> None:
    key = "Traceback (most recent call last):\n  ...\nKeyError: 'quantity'\n"
    assert describe_run(RunEnd("a", 1, key, 0.1)).endswith(
        "The data has no key 'quantity': print one record (or its keys, or the columns) "
        "first to see what it holds, then use those names.")
    moved = "mv: target '*.jpg': No such file or directory\n"
    assert 'for f in *.old; do mv -- "$f" "${f%.old}.new"; done' in describe_run(
        RunEnd("a", 1, moved, 0.1))
    assert "loop" not in describe_run(RunEnd("a", 0, moved, 0.1))
    # in the words of the code that failed: a small model copies a concrete line
    assert describe_run(RunEnd("a", 1, moved, 0.1), code="mv -v *.jpeg *.jpg").endswith(
        'loop: for f in *.jpeg; do mv -- "$f" "${f%.jpeg}.jpg"; done')


def test_block_python_squeezed_into_python_c_is_explained() -> None:
    squeezed = ('  File "<string>", line 1\n    import os; for f in x: print(f)\n'
                "               ^^^\nSyntaxError: invalid syntax\n")
    assert "(language python) instead" in describe_run(RunEnd("a", 1, squeezed, 0.1))
    script = '  File "/tmp/a.py", line 1\n    for\nSyntaxError: invalid syntax\n'
    assert "language python" not in describe_run(RunEnd("a", 1, script, 0.1))


def test_reading_a_file_not_there_lists_what_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    monkeypatch.chdir(tmp_path)
    missing = "FileNotFoundError: [Errno 2] No such file or directory: 'package.json'\n"
    assert describe_run(RunEnd("a", 1, missing, 0.1)).endswith(
        "There is no package.json there yet: the working folder is empty. To make "
        "package.json, write it.")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "sales.csv").write_text("a\n")
    (tmp_path / "notes.txt").write_text("n\n")
    guessed = "cat: data/orders.csv: No such file or directory\n"
    shell = "bash: line 1: data/orders.csv: No such file or directory\n"
    assert "there yet; data/ holds: sales.csv." in describe_run(RunEnd("a", 1, shell, 0.1))
    assert "there yet; data/ holds: sales.csv." in describe_run(RunEnd("a", 1, guessed, 0.1))
    pattern = "ls: cannot access '*.jpeg': No such file or directory\n"  # all renamed
    assert describe_run(RunEnd("a", 2, pattern, 0.1)).endswith(
        "No file matches *.jpeg; the working folder holds: data/, notes.txt.")
    listed = "ls: cannot access 'report.pdf': No such file or directory\n"
    assert "There is no report.pdf there yet;" in describe_run(RunEnd("a", 2, listed, 0.1))
    assert "the working folder holds: data/, notes.txt." in describe_run(
        RunEnd("a", 1, missing, 0.1))
    (tmp_path / "package.json").write_text("{}")  # there now: the failure was another
    assert "holds" not in describe_run(RunEnd("a", 1, missing, 0.1))
    absolute = "FileNotFoundError: [Errno 2] No such file or directory: '/srv/x.json'\n"
    assert "holds" not in describe_run(RunEnd("a", 1, absolute, 0.1))


def test_an_absolute_path_for_a_folder_here_is_named_when_nothing_printed(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib").mkdir()
    code = "import os\nfor name in os.listdir('/lib/'):\n    pass\n"
    quiet = RunEnd("a", 0, "", 0.1)
    assert describe_run(quiet, "", str(tmp_path), code).endswith(
        "Your code looked in /lib/, outside the working folder, and printed nothing. Run it "
        "again with lib/ (the working folder's) in place of /lib/.")
    assert "outside" not in describe_run(RunEnd("a", 0, "x.py\n", 0.1), "", str(tmp_path), code)
    assert "outside" not in describe_run(quiet, "", str(tmp_path), "os.listdir('lib/')")
    assert "outside" not in describe_run(quiet, "", str(tmp_path), "open('/etc/hosts')")
    inside = f"open('{tmp_path}/lib/a.py')"  # the working folder by its absolute path
    assert "outside" not in describe_run(quiet, "", str(tmp_path), inside)


def test_a_file_s_text_proposed_as_code_is_named_for_what_it_is() -> None:
    python = ('  File "<run 1>", line 2\n    buy milk\n        ^^^^\n'
              "SyntaxError: invalid syntax\n")
    todo = "todo.txt\nbuy milk\ncall the dentist"
    assert describe_run(RunEnd("a", 1, python, 0.1), code=todo, making=["todo.txt"]).endswith(
        "That is the text of todo.txt, not code: code must write it, with "
        "open('todo.txt', 'w').write(...) holding that text.")
    node = "<run 1>:2\n  \"port\": 8080,\n        ^\n\nSyntaxError: Unexpected token ':'\n"
    config = '{\n  "port": 8080\n}'
    assert "require('fs').writeFileSync('config.json', ...)" in describe_run(
        RunEnd("a", 1, node, 0.1), code=config, making=["config.json"])
    assert "text of" not in describe_run(RunEnd("a", 1, python, 0.1), code=todo)
    program = "print('x'\nopen('todo.txt', 'w')"  # a program with a slip: not the file's text
    assert "text of" not in describe_run(RunEnd("a", 1, python, 0.1), code=program,
                                         making=["todo.txt"])


def test_an_optional_dependency_and_a_failed_install_say_what_is_installed() -> None:
    pandas = ("ImportError: Missing optional dependency 'tabulate'.  Use pip or conda to "
              "install tabulate.\n")
    assert describe_run(RunEnd("a", 1, pandas, 0.1)).endswith(
        f"tabulate is not installed for the Python that runs your code, and pip would install "
        f"it elsewhere: do it another way. {python_packages()}.")
    pip = ("ERROR: Could not find a version that satisfies the requirement tabulate (from "
           "versions: none)\nERROR: No matching distribution found for tabulate\n")
    assert describe_run(RunEnd("a", 1, pip, 0.1)).endswith(
        f"Packages cannot be installed here: do it with what is installed. {python_packages()}.")


def test_a_made_up_absolute_path_is_sent_back_to_the_working_folder(tmp_path: Path) -> None:
    tmp_path = tmp_path / "work"
    tmp_path.mkdir()
    (tmp_path / "a.md").write_text("colour\n")
    placeholder = ("FileNotFoundError: [Errno 2] No such file or directory: "
                   "'/path/to/your/markdown/files'\n")
    described = describe_run(RunEnd("a", 1, placeholder, 0.1), "", str(tmp_path))
    assert described.endswith("/path/to/your/markdown does not exist. Run it again with '.' "
                              "in place of '/path/to/your/markdown/files': the working folder "
                              "holds a.md.")
    named = "FileNotFoundError: [Errno 2] No such file or directory: '/home/user/a.md'\n"
    assert "Run it again with 'a.md' in place of '/home/user/a.md'" in describe_run(
        RunEnd("a", 1, named, 0.1), "", str(tmp_path))
    assert "mkdir" not in described  # never a folder to make
    node = f"Error: Cannot find module '{tmp_path}/count.js'\n    at Module._resolveFilename\n"
    assert "There is no count.js there yet; the working folder holds: a.md." in describe_run(
        RunEnd("a", 1, node, 0.1), "", str(tmp_path))
    package = "Error: Cannot find module 'lodash'\n"
    assert "there yet" not in describe_run(RunEnd("a", 1, package, 0.1), "", str(tmp_path))


def test_a_script_written_with_a_line_break_inside_a_string_gets_a_here_document(
        tmp_path: Path) -> None:
    require(shutil.which("node"), "node (Debian package nodejs)")
    writer = ("require('fs').writeFileSync('sum.js', `const n = require('fs')"
              ".readFileSync('numbers.txt', 'utf8').split('\\n');\nconsole.log(n.length);\n`);")
    subprocess.run(["node", "-e", writer], cwd=tmp_path, check=True)
    run = subprocess.run(["node", "sum.js"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1
    described = describe_run(RunEnd("a", 1, run.stderr, 0.1), "", str(tmp_path), "node sum.js")
    assert described.endswith(
        "Line 1 of sum.js ends inside a string: the code that wrote sum.js turned an escape "
        "like \\n into a real line break. Write it with a shell here-document, which keeps "
        "every character as typed:\ncat > sum.js <<'EOF'\n…\nEOF")
    (tmp_path / "sum.js").write_text("console.log(1 +);\n")
    run = subprocess.run(["node", "sum.js"], cwd=tmp_path, capture_output=True, text=True)
    assert "here-document" not in describe_run(RunEnd("a", 1, run.stderr, 0.1), "",
                                               str(tmp_path), "node sum.js")


def test_ls_totals_line_alone_is_said_to_be_no_file(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "big.txt").write_text("x" * 5000)
    code = "ls -lh reports | sort -hr | head -n 1"
    run = subprocess.run(code, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert run.stdout.startswith("total ")
    described = describe_run(RunEnd("a", 0, run.stdout, 0.1), "", str(tmp_path), code)
    assert described.endswith("That is the 'total' line ls -l prints before the files, not a "
                              "file. To list the files largest first: ls -lS reports")
    listed = subprocess.run("ls -lS reports", shell=True, cwd=tmp_path, capture_output=True,
                            text=True).stdout
    assert "total" not in describe_run(RunEnd("a", 0, listed, 0.1), "", str(tmp_path),
                                       "ls -lS reports").split("```")[-1]


def test_a_script_run_by_the_shell_is_sent_to_its_interpreter(tmp_path: Path) -> None:
    (tmp_path / "sum.js").write_text("console.log([1, 2].reduce((a, b) => a + b, 0));\n")
    (tmp_path / "sum.js").chmod(0o755)
    run = subprocess.run("./sum.js", shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode != 0
    output = run.stdout + run.stderr
    for status in (run.returncode, 0):  # os.system('./sum.js') reports success
        assert describe_run(RunEnd("a", status, output, 0.1)).endswith(
            "The shell ran sum.js as a shell script. Run it with node sum.js instead.")
