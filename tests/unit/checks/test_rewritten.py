"""Rows copied from a table, their figures rewritten: real tables written by pandas and by
the csv module in a temporary folder."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from assistant.checks.made import problems
from assistant.checks.rewritten import rewritten

SALES = "date,city,amount\n2024-04-01,London,120.50\n2024-04-02,Paris,80.00\n" \
        "2024-04-03,London,99.95\n"
REQUEST = "Put the London rows of sales.csv into london.csv and tell me the total"


def test_rows_pandas_copies_with_their_figures_rewritten_are_named(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text(SALES)
    table = pd.read_csv(tmp_path / "sales.csv")
    table[table.city == "London"].to_csv(tmp_path / "london.csv", index=False)
    written = (tmp_path / "london.csv").read_text()
    assert rewritten("london.csv", written, tmp_path, {"london.csv"}) == (
        "120.5", "120.50", "sales.csv")
    assert problems(REQUEST, tmp_path, ["london.csv"], lines=True) == [
        "london.csv copies rows of sales.csv but writes 120.5 where sales.csv has 120.50: "
        "the values were rewritten, not copied. Read every column as text (the csv module, or "
        "pd.read_csv('sales.csv', dtype=str)), so each value stays as it is in sales.csv."]
    assert problems(REQUEST, tmp_path, ["london.csv"]) == []  # not for a hosted model


def test_rows_copied_as_text_are_not_judged(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text(SALES)
    with (tmp_path / "sales.csv").open() as source, \
            (tmp_path / "london.csv").open("w", newline="") as out:
        csv.writer(out).writerows(row for row in csv.reader(source) if row[1] != "Paris")
    assert problems(REQUEST, tmp_path, ["london.csv"], lines=True) == []
    table = pd.read_csv(tmp_path / "sales.csv", dtype=str)
    table[table.city == "London"].to_csv(tmp_path / "london.csv", index=False)
    assert problems(REQUEST, tmp_path, ["london.csv"], lines=True) == []


def test_computed_rows_match_no_source_row_and_are_not_judged(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text(SALES)
    (tmp_path / "totals.csv").write_text("city,total\nLondon,220.45\nParis,80.0\n")
    assert rewritten("totals.csv", (tmp_path / "totals.csv").read_text(), tmp_path,
                     {"totals.csv"}) is None


def test_a_merge_that_made_whole_numbers_floats_names_the_month_it_copied(
        tmp_path: Path) -> None:
    (tmp_path / "january.csv").write_text("date,item,amount\n2024-01-15,train,12\n")
    (tmp_path / "february.csv").write_text("date,item,amount\n2024-02-02,coffee,3.50\n"
                                           "2024-02-03,book,\n")
    merged = pd.concat([pd.read_csv(tmp_path / "january.csv"),
                        pd.read_csv(tmp_path / "february.csv")])
    merged.to_csv(tmp_path / "both.csv", index=False)
    assert rewritten("both.csv", (tmp_path / "both.csv").read_text(), tmp_path,
                     {"both.csv"}, ("january.csv", "february.csv")) == (
        "12.0", "12", "january.csv")


def test_a_table_rewritten_in_place_has_no_witness(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text("date,amount\n2024-04-01,120.5\n")
    assert problems("sort sales.csv by amount", tmp_path, ["sales.csv"], lines=True) == []
