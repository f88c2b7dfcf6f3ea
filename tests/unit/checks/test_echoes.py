"""An answer that echoes the loop's own words from the results it was given."""

from __future__ import annotations

from assistant.checks.echoes import echoes, framed, without_echoes
from assistant.events import RunEnd
from assistant.llm.reply import CodeCall
from assistant.messages import describe_run, fenced_message

REQUEST = "in which file under lib/ is the function parse_date defined?"
NOT_RUN = ("Not run: /lib/ is not the user's lib/, which is in the working folder: use the "
           "relative path lib/ in place of /lib/.")


def history(result: str) -> list[dict[str, object]]:
    call = CodeCall("c1", "shell", "grep -rl parse_date /lib/")
    return [{"role": "user", "content": REQUEST},
            {"role": "assistant", "content": "```shell\ngrep -rl parse_date /lib/\n```"},
            fenced_message([(call, result)], REQUEST)]


def test_the_loops_words_in_an_answer_are_an_echo() -> None:
    assert echoes(f"{NOT_RUN} For example: grep lib/", history(NOT_RUN))
    framing = "These are the results of your own code, not the user's words."
    assert echoes(f"OK.\n{framing}", history(NOT_RUN))


def test_output_and_files_quoted_from_the_results_are_no_echo() -> None:
    output = "lib/dates.py:def parse_date(text): return datetime.fromisoformat(text)\n"
    result = describe_run(RunEnd("c1", 0, output, 0.1))
    assert not echoes(f"It is in lib/dates.py:\n{output}", history(result))
    assert not echoes("It is in lib/dates.py.", history(NOT_RUN))


def test_only_results_since_the_model_last_spoke_count() -> None:
    earlier = [*history(NOT_RUN), {"role": "assistant", "content": "Fixed."},
               {"role": "user", "content": "and where is slug defined?"}]
    assert not echoes(NOT_RUN, earlier)


def test_a_clause_echoed_in_other_case_is_an_echo() -> None:
    stop = ("Stopped: the same code was proposed 3 times in a row after it had succeeded; "
            "it was not run again.")
    assert echoes("The same code was proposed 3 times in a row after it had succeeded.",
                  history(stop))


def test_code_that_copies_the_results_is_framed() -> None:
    call = CodeCall("c1", "python", "print(1)")
    copied = fenced_message([(call, describe_run(RunEnd("c1", 0, "1\n", 0.1)))], REQUEST)
    assert framed(copied["content"].removeprefix("Results of the code you proposed:\n\n"))
    assert framed("Exit status 1 (failed).\nOutput:\n")
    assert framed("python block:\nThe function parse_date is defined in lib/x.py")
    assert not framed("import sys\nprint('Exit status', 0)\nsys.exit(0)")


def test_saying_what_a_run_changed_is_no_echo() -> None:
    result = describe_run(RunEnd("c1", 0, "", 0.1),
                          "Files in the working directory: modified emails.txt.")
    assert not echoes("Files in the working directory: modified emails.txt. Duplicates are "
                      "gone.", history(result))


def test_paragraphs_repeating_the_turns_loop_words_are_left_out_of_an_answer() -> None:
    turn = [*history(NOT_RUN), {"role": "assistant", "content": "```shell\nls lib/\n```"},
            fenced_message([(CodeCall("c2", "shell", "ls lib/"), "dates.py")], REQUEST)]
    assert not echoes(f"{NOT_RUN}\n\nIt is in lib/dates.py.", turn)  # said a reply before
    assert without_echoes(f"{NOT_RUN}\n\nIt is in lib/dates.py.", turn) == (
        "It is in lib/dates.py.")
    assert without_echoes(NOT_RUN, turn) == NOT_RUN  # nothing else to say: as it is
    assert without_echoes("It is in lib/dates.py.\n\nDone.", turn) == (
        "It is in lib/dates.py.\n\nDone.")
    asked = [*turn, {"role": "assistant", "content": "Done."},
             {"role": "user", "content": "and where is slug defined?"}]
    assert without_echoes(f"{NOT_RUN}\n\nIn lib/text.py.", asked) == (
        f"{NOT_RUN}\n\nIn lib/text.py.")  # the loop's words of an earlier turn


def test_every_way_a_run_ends_as_the_results_say_it_is_framing_read_from_the_catalogue() -> None:
    for status in (0, 3, -9, None):
        told = describe_run(RunEnd("c1", status, "", 0.1))
        assert framed(f"python block:\n{told}"), status
        assert framed(told.splitlines()[0]), status
    assert not framed("print('Exit status is fine')")


def test_an_answer_that_copies_the_screens_framing_is_an_echo_its_text_is_not() -> None:
    """The embedded model answered "click Yes" with the screen message it was shown."""
    from assistant.messages import KIND, SCREEN_HEADER, untrusted
    from assistant.texts import text

    intro = SCREEN_HEADER + text("screen.intro_text").format(text("screen.untrusted"))
    body = 'Window "Export" (dialog, focused):\n  button "Yes"'
    screen = {"role": "user", KIND: "screen",
              "content": [{"type": "text", "text": f"{intro}\n" + untrusted("screen_text", body)}]}
    turn = [*history("Pressed Yes in the dialog 'Export'.\n"), screen]
    assert echoes(f"{intro}\n" + untrusted("screen_text", "(nothing on screen)"), turn)
    assert not echoes('The dialog "Export" is gone: Yes was pressed.', turn)
