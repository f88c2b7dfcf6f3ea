"""Which mislabelled code is relabelled, and which keeps its label (and its error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.checks.labels import actual_language


@pytest.mark.parametrize(
    "code",
    [
        "mkdir old && mv *.log old/",
        'for f in *.log; do mv "$f" old/; done',
        "cat data.csv | wc -l",
        "# count them\nls -la *.txt",
        "DIR=old\nmkdir $DIR",
        "ls -la",
        "df -h",
        "cd /tmp\nls",
    ],
)
def test_shell_labelled_python_is_shell(code: str) -> None:
    assert actual_language("python", code) == "shell"


@pytest.mark.parametrize(
    "code",
    [
        "print('hi'",  # broken Python stays Python: its SyntaxError tells the model
        "import os\nprint 'old style'",  # `import` is ImageMagick on PATH: never shell
        "x = 1\nprint(x)",
        "df",  # a lone name may be a variable of an earlier run
        "total / count",  # names that are no programs
        "definitely-not-a-command --now",
    ],
)
def test_python_or_unclear_code_keeps_the_python_label(code: str) -> None:
    assert actual_language("python", code) == "python"


@pytest.mark.parametrize(
    "code",
    [
        "import os\nos.makedirs('old')",
        'print("hi")',
        "with open('a.txt') as f:\n    print(f.read())",
    ],
)
def test_python_labelled_shell_is_python(code: str) -> None:
    assert actual_language("shell", code) == "python"


@pytest.mark.parametrize("code", ["ls", "ls -la", "x=5", "echo hi", "true", "# a note"])
def test_shell_that_python_also_parses_keeps_the_shell_label(code: str) -> None:
    assert actual_language("shell", code) == "shell"


def test_other_labels_are_left_alone() -> None:
    assert actual_language("javascript", "ls -la") == "javascript"


def test_when_bash_cannot_check_python_keeps_the_shell_label(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bash to ask
    assert actual_language("shell", "print('hi')") == "shell"
    assert actual_language("shell", "import os") == "python"  # plain from the syntax alone
