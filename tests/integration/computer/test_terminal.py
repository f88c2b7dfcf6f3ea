"""The verbs on xterm, which publishes no accessibility tree, under openbox: text typed
into it by its title or where the focus is goes through the keyboard to its shell, and a
control asked for in it is a miss that says to type instead; a whole turn that asks for a
command in the terminal types the model's shell code there (rule screen.terminal). The
files its shell writes prove what was typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import aim, finding
from assistant.events import Notice, RuleFired, RunEnd
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until
from tests.support.llm_server import LLMServer, text, tool_call
from tests.support.loop import on_desktop


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop("xterm") as name:
        yield name


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Program]:
    """xterm titled "xterm" running a plain shell in `tmp_path`, in front."""
    with Program("xterm", "-T", "xterm", "-e", "sh", cwd=str(tmp_path),
                 env={"PS1": "$ "}) as program:
        wait_until(lambda: any(w["title"] == "xterm" for w in computer.windows.list()),
                   "openbox manages the xterm window", 10)
        computer.focus("xterm")
        yield program


def _holds(path: Path, text: str) -> bool:
    return path.exists() and path.read_text() == text


def test_type_into_the_terminal_by_its_title_runs_the_command(terminal: Program,
                                                              tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("")
    assert computer.type("ls > listing.txt\n", window="xterm") == \
        "Typed 'ls > listing.txt\\n' into the window 'xterm'."
    listing = tmp_path / "listing.txt"
    wait_until(lambda: listing.exists() and "notes.txt\n" in listing.read_text(),
               "the shell listed its folder in listing.txt", 10)


def test_type_where_the_focus_is_and_into_the_terminal_named_as_a_field(
        terminal: Program, tmp_path: Path) -> None:
    computer.type("echo first > a.txt\n")  # the terminal has the focus
    computer.type("echo second > b.txt\n", into="xterm")  # models name a window so too
    wait_until(lambda: _holds(tmp_path / "a.txt", "first\n")
               and _holds(tmp_path / "b.txt", "second\n"), "the shell wrote a.txt, b.txt", 10)


def test_a_shell_prompt_copied_before_a_command_is_left_out_and_the_approval_says_so(
        terminal: Program, tmp_path: Path) -> None:
    """A small model copied "root@vm:/tmp/work# ls *.log" off the screen; the shell would
    run a command named "root@vm:/tmp/work#"."""
    code = 'computer.type("root@vm:/tmp/work# echo copied > c.txt\\n", window="xterm")'
    assert [each.sentence for each in aim.foresee(code)] == [
        "Types 'echo copied > c.txt\\n' into the window 'xterm'"]
    computer.type("root@vm:/tmp/work# echo copied > c.txt\n", window="xterm")
    wait_until(lambda: _holds(tmp_path / "c.txt", "copied\n"), "the shell wrote c.txt", 10)


def test_read_gives_the_terminals_text_off_the_screen(terminal: Program, ocr_engine: str
                                                     ) -> None:
    computer.type("echo seven-seven-three-one\n", window="xterm")
    wait_until(lambda: "seven-seven-three-one" in computer.read("xterm").split(
        "echo", 1)[-1], "the echoed word read off the terminal", 10)
    assert computer.read("xterm").startswith('Window "xterm" (publishes no controls')


def test_a_control_asked_for_in_the_terminal_says_to_type_into_it(terminal: Program) -> None:
    with pytest.raises(finding.NotOnScreen) as caught:
        computer.press("OK", window="xterm")
    assert str(caught.value) == (
        "the window 'xterm' publishes no controls to name (no button can be found in it): "
        "type into it instead, computer.type('text', window='xterm'), or press its keys, "
        "computer.key('enter')")
    with pytest.raises(finding.NotOnScreen, match=r"^no field 'Command' on screen.* the "
                                                  r"window 'xterm' publishes no controls"):
        computer.type("ls", into="Command")
    assert terminal.running()


def test_the_approval_says_the_text_goes_into_the_terminal(terminal: Program) -> None:
    said = [each.sentence for each in aim.foresee(
        'computer.type("ls\\n", window="xterm")\ncomputer.type("pwd\\n")')]
    assert said == ["Types 'ls\\n' into the window 'xterm'",
                    "Types 'pwd\\n' into the window 'xterm'"]  # it has the focus


def test_the_screen_text_gives_a_dialog_over_the_terminal_its_own_words(
        tmp_path: Path, ocr_engine: str) -> None:
    with Program("xterm", "-T", "xterm", "-geometry", "200x60+0+0", "-e", "sh",
                 cwd=str(tmp_path), env={"PS1": "ready$ "}), \
            Program("zenity", "--question", "--title=Export",
                    "--text=Export the quarterly report now?") as asked:
        asked.focused("Export")
        screen = computer.screen()
    assert screen.startswith('Window "Export" (dialog, focused):\n')
    terminal = screen.split('Window "xterm" (publishes no controls', 1)[-1]
    assert "ready$" in terminal  # the terminal's own text, read off the screen
    assert "quarterly" not in terminal and '"Yes"' not in terminal  # the dialog's, not its


def test_shell_code_for_a_request_to_use_the_terminal_is_typed_into_it(
        terminal: Program, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        server: LLMServer) -> None:
    """The command runs in the terminal's shell (its folder), not in the assistant's own;
    the approval shows the typing, and the same command proposed again is not typed again."""
    own = tmp_path / "own"
    own.mkdir()
    monkeypatch.chdir(own)
    server.add(tool_call("shell", "mkdir photos"), tool_call("shell", "mkdir photos"),
               text("Made the folder photos in the terminal."))
    asked, events = on_desktop(server, "Use the terminal window to make a folder called "
                                        "photos.")
    [proposal] = asked
    assert (proposal.language, proposal.code) == (
        "python", "computer.type('mkdir photos\\n', window='xterm')")
    assert proposal.effect is not None
    assert proposal.effect.summary == "Types 'mkdir photos\\n' into the window 'xterm'."
    wait_until(lambda: (tmp_path / "photos").is_dir(), "the terminal's shell made photos", 10)
    assert not (own / "photos").exists()
    fired = [e.rule for e in events if isinstance(e, RuleFired)]
    assert fired.count("screen.terminal") == 1 and "repeat.success_told" in fired
    assert any(isinstance(e, Notice) and "the command is typed there" in e.text
               for e in events)
    [end] = [e for e in events if isinstance(e, RunEnd)]
    told = str(server.chat_requests[1].body["messages"])
    assert end.exit_status == 0 and "Typed into the terminal window 'xterm'" in told


@pytest.mark.parametrize("asked", [
    ("Make a folder called photos here.", ""),  # no terminal asked for
    ("In the terminal, make a folder called photos.", "screen.terminal"),  # the rule off
])
def test_without_the_terminal_asked_for_or_with_the_rule_off_the_shell_code_runs_here(
        terminal: Program, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        server: LLMServer, asked: tuple[str, str]) -> None:
    own = tmp_path / "own"
    own.mkdir()
    monkeypatch.chdir(own)
    server.add(tool_call("shell", "mkdir photos"), text("Made it."))
    proposals, _ = on_desktop(server, *asked)
    assert [p.language for p in proposals] == ["shell"]
    assert (own / "photos").is_dir() and not (tmp_path / "photos").exists()


@pytest.fixture
def build_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """xterm in front running a shell in `tmp_path` whose BUILD_ID is 7731-rc2 (a
    variable only that shell has), the assistant working in `tmp_path`/own: that folder."""
    own = tmp_path / "own"
    own.mkdir()
    monkeypatch.chdir(own)
    with Program("xterm", "-T", "xterm", "-e", "sh", cwd=str(tmp_path),
                 env={"PS1": "$ ", "BUILD_ID": "7731-rc2"}):
        wait_until(lambda: any(w["title"] == "xterm" for w in computer.windows.list()),
                   "openbox manages the xterm window", 10)
        computer.focus("xterm")
        yield own
        wait_until(lambda: _holds(tmp_path / "build.txt", "7731-rc2\n"),
                   "the terminal's shell wrote build.txt", 10)


def test_python_for_a_request_to_use_the_terminal_is_told_to_be_its_shell_command(
        build_terminal: Path, server: LLMServer) -> None:
    """The variable is set in the terminal's shell only: python run by the assistant
    would not see it (rule screen.offscreen, its terminal words)."""
    server.add(tool_call("python", "import os\nopen('build.txt', 'w').write("
                                   "os.environ.get('BUILD_ID', ''))"),
               tool_call("shell", "echo $BUILD_ID > build.txt"), text("Saved it."))
    asked, _ = on_desktop(server, "Use the terminal window to save the value of BUILD_ID "
                                  "into build.txt.", off="screen.command")  # the model's
    assert [p.code for p in asked] == ["computer.type('echo $BUILD_ID > build.txt\\n', "
                                       "window='xterm')"]
    assert not (build_terminal / "build.txt").exists()
    told = str(server.chat_requests[1].body["messages"][-1])
    assert "the request is for the terminal 'xterm' on screen" in told


@pytest.mark.parametrize(("request_", "command"), [
    ("In the terminal, run `echo $BUILD_ID > build.txt` please.", "echo $BUILD_ID > build.txt"),
    ("In the terminal that's open there's a BUILD_ID variable set. Save its value into "
     "build.txt.", 'echo "$BUILD_ID" > build.txt'),
    ("Would you mind writing whatever BUILD_ID is set to into build.txt?",  # no terminal
     'echo "$BUILD_ID" > build.txt')])  # word: the assistant's own shell has no BUILD_ID
def test_a_command_spelled_out_for_the_terminal_is_typed_there_without_the_model(
        build_terminal: Path, server: LLMServer, request_: str, command: str) -> None:
    """The request gives the command in backticks, or asks to save one variable into one
    file: typed into the terminal, and the model is asked only once it ran (a small model
    set the variable first)."""
    server.add(text("Done."))
    asked, events = on_desktop(server, request_)
    assert [p.code for p in asked] == [f"computer.type({command + chr(10)!r}, window='xterm')"]
    assert "screen.command" in [e.rule for e in events if isinstance(e, RuleFired)]
    assert len(server.chat_requests) <= 1  # the model never wrote the command


def test_a_variable_the_assistant_has_or_a_name_used_as_a_folder_is_no_terminal_command(
        terminal: Program, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.loop.terminal import commanded

    monkeypatch.setenv("RELEASE_TAG", "v1")
    assert commanded("put the value of RELEASE_TAG in tag.txt") is None  # its own shell's
    assert commanded("put the value of RELEASE_TAG in tag.txt, in the terminal") == \
        "computer.type('echo \"$RELEASE_TAG\" > tag.txt\\n', window='xterm')"
    assert commanded("copy report.txt to the RELEASE_DIR folder") is None
