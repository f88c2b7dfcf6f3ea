"""The python runtime: a persistent __main__, Python's own error reporting, SystemExit."""

import time

from assistant.events import OutputChunk


def test_state_survives_between_runs(execute):
    assert execute("python", "import math\nradius = 2").exit_status == 0
    end = execute("py", "print(round(math.pi * radius**2, 2))")
    assert (end.exit_status, end.output) == (0, "12.57\n")


def test_code_runs_as_main(execute):
    assert execute("python", "print(__name__)").output == "__main__\n"


def test_exception_prints_a_traceback_without_driver_frames(execute):
    end = execute("python", "def f():\n    return 1 / 0\n\nf()")
    assert end.exit_status == 1
    assert end.output.startswith("Traceback (most recent call last):\n")
    assert "return 1 / 0" in end.output
    assert end.output.endswith("ZeroDivisionError: division by zero\n")
    assert "python_driver" not in end.output


def test_syntax_error_fails_only_that_run(execute):
    end = execute("python", "x = (")
    assert end.exit_status == 1
    assert "SyntaxError" in end.output
    assert "python_driver" not in end.output
    assert execute("python", "print('fine')").output == "fine\n"


def test_system_exit_gives_its_status_and_keeps_the_runtime(execute):
    execute("python", "kept = 'yes'")
    assert execute("python", "import sys\nsys.exit(4)").exit_status == 4
    assert execute("python", "raise SystemExit").exit_status == 0
    end = execute("python", "exit('bye')")
    assert (end.exit_status, end.output) == (1, "bye\n")
    end = execute("python", "print(kept)")
    assert (end.exit_status, end.output, end.restarted) == (0, "yes\n", False)


def test_output_streams_live(runtimes):
    code = "import time\nprint('first', flush=True)\ntime.sleep(0.6)\nprint('second')"
    started = time.monotonic()
    seen = ""
    for event in runtimes.run("python", code, proposal_id="live"):
        seen += event.text if isinstance(event, OutputChunk) else ""
        if seen == "first\n":
            assert time.monotonic() - started < 0.5
            break
    assert seen == "first\n"


def test_stderr_is_captured_as_its_own_stream(runtimes):
    events = list(runtimes.run("python", "import sys\nprint('oops', file=sys.stderr)"))
    chunks = [event for event in events if isinstance(event, OutputChunk)]
    assert {chunk.stream for chunk in chunks} == {"stderr"}
    assert events[-1].output == "oops\n"


def test_common_standard_modules_need_no_import(execute):
    code = "print(os.sep, json.dumps([1]), Path('a/b').name, re.sub('x', 'y', 'x'))"
    end = execute("python", code)
    assert (end.exit_status, end.output) == (0, "/ [1] b y\n")


def test_the_value_of_a_last_bare_expression_is_shown_as_jupyter_shows_it(execute):
    assert execute("python", "numbers = [3, 1, 2]\nsorted(numbers)").output == "[1, 2, 3]\n"
    assert execute("python", "'a' + 'b'").output == "'ab'\n"
    assert execute("python", "print('once')").output == "once\n"  # None is not shown
    assert execute("python", "total = 5").output == ""
    assert execute("python", "total\nx = 1").output == ""  # only the last statement counts
    end = execute("python", "def f():\n    return 1 / 0\n\nf()")
    assert end.exit_status == 1 and "return 1 / 0" in end.output


def test_import_computer_is_the_assistants_own(execute):
    end = execute("python", "import computer\nfrom computer import press\n"
                            "print(computer.__name__, press.__module__)")
    assert end.output == "assistant.computer assistant.computer.verbs\n", end.output


def test_a_failure_inside_computer_is_told_at_the_runs_own_line(execute):
    end = execute("python", "computer.press('')")
    assert end.exit_status == 1
    assert 'File "<run' in end.output and "computer.press('')" in end.output
    assert "verbs.py" not in end.output and "an empty name" in end.output.splitlines()[-1]


def test_a_librarys_own_exit_hook_is_not_a_leftover_but_the_runs_is(execute):
    """logging registers logging.shutdown when first imported: housekeeping, kept; an exit
    hook the run's own code registers is code left to run later, stopped and said."""
    quiet = execute("python", "import logging\nprint('imported')")
    assert quiet.output == "imported\n"
    hooked = execute("python", "import atexit\natexit.register(print, 'later')")
    assert "stopped what the run left to run later: an exit hook (builtins.print)" \
        in hooked.output
