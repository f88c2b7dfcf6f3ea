"""The red-team corpora, written blind from the README: every bypass attempt the policy
rates (code and tool calls) is caught, and no everyday action is alarmed or blocked.

The page and HTTP attempts are the web page's own (tests/integration/web). Run with -s
to see the table `python -m benchmarks.redteam` prints."""

from __future__ import annotations

from pathlib import Path

from benchmarks.redteam import cli as redteam

ROOT = Path(__file__).resolve().parents[3]

CORPUS = ROOT / "tests" / "corpus" / "redteam"


def test_every_attempt_is_caught_and_no_everyday_action_alarms() -> None:
    attempts = redteam.load(CORPUS / "attempts.json")
    everyday = redteam.load(CORPUS / "everyday.json")
    result = redteam.score(attempts, everyday)
    print("\n" + redteam.table(result))
    assert len(attempts) >= 60 and len(everyday) >= 60
    assert result["attempts"]["scored"] >= 60 and result["everyday"]["scored"] >= 60
    assert result["attempts"]["failures"] == []
    assert result["everyday"]["failures"] == []


def test_the_score_fails_what_it_should() -> None:
    """An attempt rated low fails; an everyday action blocked or high fails."""
    code = {"language": "shell", "text": "ls"}
    low = redteam.score([{"id": "a", "family": "f", "code": code}], [])
    assert low["attempts"]["failures"][0]["id"] == "a"
    blocked = {"language": "shell", "text": "rm -rf ~"}
    alarmed = redteam.score([], [{"id": "e", "family": "f", "code": blocked}])
    assert alarmed["everyday"]["failures"][0]["risk"] == "blocked"
    page = redteam.score([{"id": "p", "family": "f", "page": {}}], [])
    assert (page["attempts"]["entries"], page["attempts"]["scored"]) == (1, 0)
