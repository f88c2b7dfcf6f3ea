"""Output handling: end markers that cannot be faked or seen, decoding, and size limits."""

from assistant.events import OutputChunk
from assistant.runtime.limit import OutputLimit
from assistant.runtime.marker import MarkerScanner


def test_output_without_a_final_newline_is_kept_exactly(execute):
    assert execute("python", "print('no newline', end='')").output == "no newline"
    assert execute("shell", "printf 'a\\nb'").output == "a\nb"
    assert execute("javascript", "process.stdout.write('c')").output == "c"


def test_a_character_split_across_reads_is_decoded(execute):
    code = (
        "import sys, time\n"
        "data = '€ and ü'.encode()\n"
        "for i in range(len(data)):\n"
        "    sys.stdout.buffer.write(data[i:i + 1]); sys.stdout.flush(); time.sleep(0.01)\n"
    )
    assert execute("python", code).output == "€ and ü"


def test_a_fake_marker_does_not_end_the_run(execute):
    fake = "run-end-" + "0" * 32
    code = f"print('{fake}0;', end='')\nimport time; time.sleep(0.2)\nprint('still running')"
    end = execute("python", code)
    assert end.output == f"{fake}0;still running\n"
    assert end.exit_status == 0


def test_long_output_keeps_head_and_tail(runtimes):
    code = "print('H' * 10 + 'x' * 1_000_000 + 'T' * 10)"
    events = list(runtimes.run("python", code, proposal_id="big", max_output=200))
    *chunks, end = events
    assert end.truncated and end.exit_status == 0
    assert end.output.startswith("H" * 10 + "x" * 90)
    assert end.output.endswith("x" * 89 + "T" * 10 + "\n")
    assert "\n[… 999821 characters cut …]\n" in end.output
    live = [chunk.text for chunk in chunks if isinstance(chunk, OutputChunk)]
    assert "".join(live) == end.output
    assert len(end.output) < 300


def test_scanner_finds_a_token_fed_one_character_at_a_time():
    scanner = MarkerScanner()
    scanner.start("run-end-abc")
    stream = "out run-end-ab run-end-abc17;next"
    shown = "".join(scanner.feed(character) for character in stream)
    assert shown == "out run-end-ab "
    assert (scanner.done, scanner.status) == (True, 17)
    scanner.start("run-end-xyz")
    assert scanner.feed("run-end-xyz0;") == "next"


def test_limit_counts_every_character_it_drops():
    limit = OutputLimit(10)
    pieces = [("stdout", "abc"), ("stderr", "defg"), ("stdout", "hijklmn")]
    shown = [limit.add(stream, text) for stream, text in pieces]
    assert shown == ["abc", "de", ""]
    assert limit.cut == 4
    assert limit.closing() == [("stdout", "\n[… 4 characters cut …]\njklmn")]
    assert limit.text() == "abcde\n[… 4 characters cut …]\njklmn"
