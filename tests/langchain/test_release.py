"""`SentenceReleaser`: which streamed text is released when, and how shown text is continued."""

from __future__ import annotations

import re

import pytest

from factcheck import CheckerFailure, check
from factcheck.langchain.release import RETRY_SEPARATOR, SentenceReleaser

TOOLS = [{"name": "order_lookup", "args": {"order_id": "88231"},
          "output": {"order_id": "88231", "status": "shipped", "carrier": "SF", "days": 3}, "status": "ok"}]


def checker(text: str):
    return check(text, tool_calls=TOOLS)


def stream(answer: str, release: str = "sentence", shown: str = "") -> tuple[list[str], SentenceReleaser]:
    releaser = SentenceReleaser(checker, release, shown)
    pieces = [releaser.feed(word) for word in re.findall(r"\S+\s*", answer)]
    return [p for p in pieces if p], releaser


@pytest.mark.parametrize(
    ("answer", "released_while_streaming"),
    [
        # each claim is released at the first word of the next one, without the space after it
        ("Order 88231 has shipped. The carrier is SF. It arrives in 3 days.",
         ["Order 88231 has shipped.", " The carrier is SF."]),
        # a flagged claim holds back itself and everything after it
        ("Order 88231 has shipped. It arrives in 5 days. The carrier is SF.", ["Order 88231 has shipped."]),
        ("It arrives in 5 days. Order 88231 has shipped.", []),
        ("Order 88231 has shipped. Your refund of $45 has been processed. Thanks.", ["Order 88231 has shipped."]),
        # a decimal point is no sentence end; one sentence is released only at the end
        ("Order 88231 costs 45.00 dollars and has shipped.", []),
        # CJK text: the word "已发货。承运商是" holds a sentence end, which is enough
        ("订单 88231 已发货。承运商是 SF。预计 3 天送达。", ["订单 88231 已发货。", "承运商是 SF。"]),
    ],
)
def test_feed_releases_checked_claims_only(answer, released_while_streaming):
    pieces, _ = stream(answer)
    assert pieces == released_while_streaming


def test_final_release_holds_everything_until_finish():
    answer = "Order 88231 has shipped. The carrier is SF. It arrives in 3 days."
    pieces, releaser = stream(answer, release="final")
    assert pieces == [] and releaser.finish(answer) == answer


@pytest.mark.parametrize(
    ("shown", "final", "rest"),
    [
        ("", "A. B.", "A. B."),
        ("A.", "A. B.", " B."),          # a retried answer that continues what was shown
        ("A. B.", "A.", ""),             # one that is already shown whole
        ("A.", "C. D.", f"{RETRY_SEPARATOR}C. D."),  # one that departs from it: after a blank line
    ],
)
def test_finish_continues_what_was_shown(shown, final, rest):
    releaser = SentenceReleaser(checker, "sentence", shown)
    assert releaser.finish(final) == rest
    assert releaser.shown == shown + rest


@pytest.mark.parametrize("fails_on_call", [1, 2])
def test_a_checker_failure_holds_the_rest_until_finish(fails_on_call):
    answer = "Order 88231 has shipped. The carrier is SF. It arrives in 3 days. Thanks."
    calls = []

    def failing(text: str):
        calls.append(text)
        if len(calls) >= fails_on_call:
            raise CheckerFailure("fact checker failed: ValueError: checker bug")
        return checker(text)

    releaser = SentenceReleaser(failing)
    pieces = [p for p in (releaser.feed(w) for w in re.findall(r"\S+\s*", answer)) if p]
    assert pieces == ["Order 88231 has shipped."][: fails_on_call - 1]
    assert releaser.blocked and len(calls) == fails_on_call  # not asked again once it failed
    assert "".join(pieces) + releaser.finish(answer) == answer
