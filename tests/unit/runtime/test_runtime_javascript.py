"""The javascript runtime: one vm context that persists, Promises awaited, Node missing."""

import time

from assistant.runtime import Runtimes


def test_state_survives_between_runs(execute):
    assert (
        execute(
            "javascript", "let count = 1; var total = 10; function bump() { count++ }"
        ).exit_status
        == 0
    )
    end = execute("js", "bump(); console.log(count, total, typeof require('fs').readFileSync)")
    assert (end.exit_status, end.output) == (0, "2 10 function\n")


def test_a_snippet_may_declare_again_what_an_earlier_run_declared(execute):
    assert execute("javascript", "const fs = require('fs'); let total = 1").exit_status == 0
    end = execute("javascript", "const fs = require('fs');\nlet total = 41;\n"
                                "console.log(total + 1, typeof fs.readFileSync)")
    assert (end.exit_status, end.output) == (0, "42 function\n")
    failed = execute("javascript", "const fs = 1;\nnull.x")
    assert failed.exit_status == 1 and "<run 3>:2" in failed.output


def test_a_promise_result_is_awaited(execute):
    code = "new Promise((resolve) => setTimeout(() => { console.log('settled'); resolve() }, 100))"
    end = execute("node", code)
    assert (end.exit_status, end.output) == (0, "settled\n")


def test_callbacks_left_behind_belong_to_the_run(execute, tmp_path):
    """As with `node file.js`: output of a readFile callback or a timer is the run's own."""
    numbers = tmp_path / "numbers.txt"
    numbers.write_text("1\n2\n3\n")
    code = (f"require('fs').readFile({str(numbers)!r}, 'utf8', (err, data) => {{\n"
            "  setTimeout(() => console.log(data.split('\\n').map(Number)"
            ".reduce((a, b) => a + b, 0)), 50);\n});")
    end = execute("javascript", code)
    assert (end.exit_status, end.output) == (0, "6\n")
    assert execute("javascript", "console.log('next')").output == "next\n"


def test_an_error_in_a_callback_fails_the_run(execute):
    end = execute("javascript", "setTimeout(() => { throw new Error('late') }, 20)")
    assert end.exit_status == 1
    assert "Error: late" in end.output


def test_a_listening_server_keeps_serving_after_its_run(execute):
    started = time.monotonic()
    end = execute("javascript", "const server = require('net').createServer(() => {});\n"
                                "server.listen(0, '127.0.0.1', () => console.log('up'));")
    assert (end.exit_status, end.output) == (0, "up\n")
    assert time.monotonic() - started < 5
    assert execute("javascript", "console.log(server.listening)").output == "true\n"


def test_top_level_await_works(execute):
    end = execute("javascript", "const v = await Promise.resolve(6); console.log(v * 7)")
    assert (end.exit_status, end.output) == (0, "42\n")


def test_uncaught_error_prints_the_stack_without_driver_frames(execute):
    end = execute("javascript", "function f() { throw new TypeError('bad input') }\nf()")
    assert end.exit_status == 1
    assert "TypeError: bad input" in end.output
    assert "at f (<run 1>:1:" in end.output
    assert "node_driver" not in end.output and "node:vm" not in end.output


def test_a_rejected_promise_fails_the_run(execute):
    end = execute("javascript", "Promise.reject(new Error('nope'))")
    assert end.exit_status == 1
    assert "Error: nope" in end.output


def test_missing_node_is_explained_not_raised():
    with Runtimes(env={"PATH": "/nonexistent"}) as rt:
        *_, end = rt.run("javascript", "console.log(1)", proposal_id="p")
    assert end.exit_status is None
    assert end.output == (
        "JavaScript needs Node.js, which is not installed: "
        "install it (Debian: apt-get install nodejs) and try again."
    )
