"""The verbs on a form in Debian's Chromium (its page's tree published with
--force-renderer-accessibility), under openbox with the accessibility bus up: fields by
their labels, a drop-down, a check box, a radio, the submit button. What the page posts
to a server on 127.0.0.1 proves what was done."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from assistant import computer
from assistant.computer import after, aim, finding, tree
from tests.support.browser import QUIET
from tests.support.desktop import Program, desktop
from tests.support.display import wait_until
from tests.support.form_server import FormServer

PAGE = """<!doctype html><html><head><title>Newsletter</title></head><body>
<h1>Join the newsletter</h1>
<form method="post" action="/posted">
<p><label for="email">Email</label> <input id="email" name="email" type="email"></p>
<p><label for="name">Your name</label> <input id="name" name="name"></p>
<p><label for="topic">Topic</label> <select id="topic" name="topic">
<option>Gardening</option><option>Cooking</option><option>Travel</option></select></p>
<p><label><input type="checkbox" name="weekly" value="yes"> Weekly digest</label></p>
<fieldset><legend>Format</legend>
<label><input type="radio" name="format" value="html" checked> HTML</label>
<label><input type="radio" name="format" value="text"> Plain text</label></fieldset>
<p><label for="notes">Notes</label><br><textarea id="notes" name="notes"></textarea></p>
<button type="submit">Subscribe</button>
</form></body></html>"""


@pytest.fixture(scope="module", autouse=True)
def desk(a11y_bus: str) -> Iterator[str]:
    with desktop("chromium") as name:
        yield name


@contextmanager
def opened(html: str, title: str, field: str, profile: Path) -> Iterator[FormServer]:
    """`html` served and open in Chromium, once its `field` (in the window titled like
    `title`) is published on the accessibility bus."""
    with FormServer(html) as site, \
            Program("chromium", *QUIET, "--force-renderer-accessibility",
                    f"--user-data-dir={profile}", "--window-size=1000,760",
                    site.url, env={"ACCESSIBILITY_ENABLED": "1"}):
        wait_until(lambda: any(c.name == field and c.field for w in tree.windows(title)
                               for c in w.controls),
                   f"the page's {field} field on the accessibility bus", 60)
        yield site


@pytest.fixture
def page(tmp_path: Path) -> Iterator[FormServer]:
    """The form in Chromium, its page's controls published on the accessibility bus."""
    with opened(PAGE, "Newsletter", "Email", tmp_path / "profile") as site:
        yield site


def test_fill_a_page_form_by_its_labels_and_press_submit(page: FormServer) -> None:
    assert computer.type("ana@example.org", into="Email") == \
        "Typed 'ana@example.org' into 'Email' in the window 'Newsletter - Chromium'."
    computer.fill({"Your name": "Ana Lopez", "Notes": "Spring issues only"})
    assert computer.choose("Cooking") == "Chose Cooking in the window 'Newsletter - Chromium'."
    assert computer.tick("Weekly digest") == \
        "Ticked Weekly digest in the window 'Newsletter - Chromium'."
    computer.choose("Plain text")
    assert computer.press("Subscribe") == \
        "Pressed Subscribe in the window 'Newsletter - Chromium'."
    assert page.posted() == {"email": "ana@example.org", "name": "Ana Lopez",
                             "topic": "Cooking", "weekly": "yes", "format": "text",
                             "notes": "Spring issues only"}


def test_fill_with_one_mapping_chooses_the_drop_downs_entry(page: FormServer) -> None:
    said = computer.fill({"Email": "ana@example.org", "Topic": "Travel"})
    assert said == ("Typed 'ana@example.org' into 'Email' in the window 'Newsletter - "
                    "Chromium'. Chose Travel in 'Topic' in the window 'Newsletter - Chromium'.")
    computer.press("Subscribe")
    posted = page.posted()
    assert (posted["email"], posted["topic"]) == ("ana@example.org", "Travel")


def test_the_screen_text_lists_the_page_form_by_role_and_label(page: FormServer) -> None:
    computer.type("ana@example.org", into="Email")
    text = computer.read("Newsletter")
    assert text.splitlines()[2:] == [
        "  text: Join the newsletter",
        '  field "Email" = "ana@example.org" (focused)',
        '  field "Your name"',
        '  drop-down "Topic" = "Gardening"',
        '  check box "Weekly digest" (not ticked)',
        "  text: Format",
        '  radio "HTML" (chosen)',
        '  radio "Plain text"',
        '  text area "Notes"',
        '  button "Subscribe"']  # after the browser's heading and its address field
    assert "Chromium" not in text.split("\n", 2)[2]  # none of the browser's own controls


def test_a_miss_on_the_page_names_its_fields(page: FormServer) -> None:
    with pytest.raises(finding.NotOnScreen) as caught:
        computer.type("ana", into="Surname", window="Newsletter")
    assert str(caught.value) == (
        "no field 'Surname' in the window 'Newsletter - Chromium'; its fields: Address and "
        "search bar, Email, Your name, Topic, Notes")


def test_the_approval_and_the_screen_after_name_the_page_controls(page: FormServer) -> None:
    code = ('computer.choose("Cooking")\ncomputer.type("Ana Lopez", into="Your name")\n'
            'computer.tick("Weekly digest")')
    aims, then = aim.foresee(code), after.before()
    assert [each.sentence for each in aims] == [
        "Chooses 'Cooking' from a drop-down list in the window 'Newsletter - Chromium' (its "
        "entries show only once it opens)",
        "Types 'Ana Lopez' into 'Your name' in 'Newsletter - Chromium'",
        "Ticks Weekly digest in the window 'Newsletter - Chromium'"]
    computer.choose("Cooking")
    computer.type("Ana Lopez", into="Your name")
    computer.tick("Weekly digest")
    assert [fact.sentence for fact in after.after(aims, then)] == [
        "'Topic' shows 'Cooking' in the window 'Newsletter - Chromium'",
        "the field 'Your name' in the window 'Newsletter - Chromium' holds 'Ana Lopez'",
        "'Weekly digest' is ticked in the window 'Newsletter - Chromium'"]


def test_a_label_copied_from_an_example_means_the_pages_one_field_not_the_address_bar(
        tmp_path: Path) -> None:
    """The page's one field is the window's one field: the browser's own address field
    does not count, so a label no field has types into the page's field."""
    one = ('<!doctype html><title>Search</title><form method="post" action="/posted">'
           '<label>Find <input name="q"></label> <button>Go</button></form>')
    with opened(one, "Search", "Find", tmp_path / "profile") as site:
        assert computer.type("tulips", into="Your name:") == \
            "Typed 'tulips' into 'Find' in the window 'Search - Chromium'."
        computer.press("Go")
        assert site.posted() == {"q": "tulips"}

