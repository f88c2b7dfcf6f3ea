"""Stopping runs: interrupt, time limit, programs waiting on stdin, stuck processes, close()."""

import os
import signal
import threading
import time

import pytest

from assistant.events import RunEnd
from assistant.plugins.registry import languages
from assistant.runtime import Runtimes
from tests.support.require import require

STDIN_NOTE = (
    "[the program waited for input on stdin and was stopped: "
    "pass input non-interactively (arguments, a file, or a pipe)]\n"
)


def test_unknown_language_names_the_supported_ones(execute):
    end = execute("ruby", "puts 1")
    assert end.exit_status is None
    supported = "the supported ones are python, shell, javascript"
    assert end.output == f"Unknown language 'ruby': {supported}."


def test_interrupt_stops_python_and_keeps_its_state(execute):
    execute("python", "kept = 42")
    end = execute("python", "import time\ntime.sleep(30)", interrupt_after=0.5)
    assert end.interrupted and not end.restarted
    assert end.exit_status == 130
    assert "KeyboardInterrupt" in end.output
    assert end.seconds < 2
    assert execute("python", "print(kept)").output == "42\n"


def test_interrupt_stops_a_shell_command_and_keeps_the_shell(execute):
    execute("shell", "kept=yes")
    end = execute("shell", "sleep 30; echo not reached", interrupt_after=0.5)
    assert (end.interrupted, end.exit_status, end.restarted) == (True, 130, False)
    assert "not reached" not in end.output
    code = "spin() { while true; do sleep 1; done; echo not reached; }\nspin\necho not reached"
    end = execute("shell", code, interrupt_after=0.5)
    assert (end.exit_status, end.output) == (130, "[the run was interrupted]\n")
    assert execute("shell", "echo $kept").output == "yes\n"


@pytest.mark.parametrize(("language", "setup", "code"), [
    ("shell", "kept=yes; echo $$", "sleep 30; echo not reached"),
    ("python", "import os\nkept = 'yes'\nprint(os.getpid())", "import time\ntime.sleep(30)"),
], ids=["shell", "python"])
def test_an_interrupt_the_runtime_gets_before_the_code_starts_still_stops_the_code(
        execute, language, setup, code):
    """On a busy machine the runtime may not have read the request yet when Ctrl-C comes:
    stopped (SIGSTOP) until after the interrupt, it meets it between its own steps."""
    runtime = int(execute(language, setup).output)
    os.kill(runtime, signal.SIGSTOP)
    threading.Timer(0.3, os.kill, (runtime, signal.SIGCONT)).start()
    end = execute(language, code, interrupt_after=0.1)
    assert (end.interrupted, end.exit_status, end.restarted) == (True, 130, False)
    assert "not reached" not in end.output and end.seconds < 2
    shown = "echo $kept" if language == "shell" else "print(kept)"
    assert execute(language, shown).output == "yes\n"


def test_interrupt_from_a_signal_handler(runtimes, execute):
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: runtimes.interrupt())
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        end = execute("python", "import time\ntime.sleep(30)")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert (end.interrupted, end.exit_status) == (True, 130)
    assert end.seconds < 2


def test_interrupt_when_idle_does_nothing(runtimes, execute):
    execute("shell", "kept=yes")
    runtimes.interrupt()
    assert execute("shell", "echo $kept").output == "yes\n"


def test_time_limit_stops_the_run(execute):
    end = execute("python", "while True:\n    pass", timeout=0.5)
    assert end.timed_out and not end.restarted
    assert end.exit_status == 130
    assert end.output.endswith("[stopped after 0.5 s: the run exceeded the time limit]\n")
    assert execute("python", "print('next')").output == "next\n"


def test_python_input_is_detected(execute):
    end = execute("python", "print('name?')\nname = input()")
    assert end.waiting_for_input
    assert end.output.startswith("name?\n")
    assert end.output.endswith(STDIN_NOTE)
    assert end.seconds < 2
    assert execute("python", "print('alive')").output == "alive\n"


def test_shell_read_is_detected_and_the_shell_survives(execute):
    execute("shell", "kept=yes")
    end = execute("shell", "read answer; echo not reached")
    assert end.waiting_for_input and not end.restarted
    assert end.output == STDIN_NOTE
    assert execute("shell", "echo $kept").output == "yes\n"


def test_a_child_reading_stdin_is_detected(execute):
    end = execute("shell", "python3 -c 'input()'")
    assert end.waiting_for_input
    assert end.output.endswith(STDIN_NOTE)
    end = execute("python", "import subprocess\nsubprocess.run(['cat'])")
    assert end.waiting_for_input


def test_a_reader_left_from_an_earlier_run_is_not_this_runs_fault(execute):
    execute("python", "import subprocess\nleftover = subprocess.Popen(['cat'])")
    end = execute("python", "import time\ntime.sleep(0.6)\nprint('done')")
    assert (end.waiting_for_input, end.output) == (False, "done\n")


def test_reading_stdin_through_a_pipe_is_not_waiting(execute):
    end = execute("shell", "x=$(sleep 0.6; echo piped); echo $x | cat")
    assert (end.waiting_for_input, end.output) == (False, "piped\n")


def test_a_process_ignoring_sigint_is_killed_and_restarted(execute):
    code = "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(30)"
    end = execute("python", "kept = 1\n" + code, timeout=0.3)
    assert end.timed_out and end.restarted
    assert end.exit_status is None
    assert "state (variables, imports) was lost" in end.output
    end = execute("python", "print('kept' in globals())")
    assert (end.output, end.restarted) == ("False\n", False)


def test_abandoning_a_run_kills_the_runtime_and_the_next_run_says_so(runtimes, execute):
    events = runtimes.run("python", "import time\nprint('go', flush=True)\ntime.sleep(30)")
    next(events)
    events.close()
    end = execute("python", "print('fresh')")
    assert end.restarted
    assert end.output.endswith("fresh\n")
    assert "had stopped" in end.output


def test_only_one_run_at_a_time(runtimes):
    first = runtimes.run("python", "import time\ntime.sleep(0.3)")
    second = runtimes.run("python", "pass")
    thread = threading.Thread(target=lambda: list(first))
    thread.start()
    time.sleep(0.1)
    try:
        next(second)
    except RuntimeError as error:
        assert "in progress" in str(error)
    else:
        raise AssertionError("a second concurrent run was allowed")
    thread.join()


def test_close_kills_every_process_of_every_group(group_members):
    with Runtimes() as rt:
        *_, shell = rt.run("shell", "sleep 100 & echo $$")
        code = "import os, subprocess\nsubprocess.Popen(['sleep', '100'])\nprint(os.getpgrp())"
        *_, python = rt.run("python", code)
        *_, node = rt.run("javascript", "console.log(process.pid)")
        # the shell's first line: the background job it left is said after it
        groups = [int(end.output.splitlines()[0]) for end in (shell, python, node)]
        assert all(len(group_members(pgid)) >= 1 for pgid in groups)
        assert len(group_members(groups[0])) == 2
    deadline = time.monotonic() + 2
    while any(group_members(pgid) for pgid in groups) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [group_members(pgid) for pgid in groups] == [[], [], []]


def test_a_plugins_language_runs_only_in_runtimes_given_it() -> None:
    """The runtime never looks plugins up: the parts hand it their languages."""
    given = languages()
    require("sql" in given, "the example plugin is not installed: ./scripts/setup --test")
    with Runtimes(timeout=20.0) as bare:
        [end] = [e for e in bare.run("sql", "select 1") if isinstance(e, RunEnd)]
    assert end.exit_status is None and end.output.startswith("Unknown language 'sql'")
    with Runtimes(timeout=20.0, languages=given) as runtimes:
        [end] = [e for e in runtimes.run("SQL", "select 1") if isinstance(e, RunEnd)]
    assert (end.exit_status, end.output) == (0, "1\n")
