"""Answers written as JSON: the prose inside is checked, offsets stay in the raw answer."""

import json

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.extractors.json_answer import read_json_answer

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
REFUND_FAILED = {"name": "refund_order", "args": {}, "output": {"order_id": "88231", "refund_status": "failed"},
                 "status": "ok"}


@pytest.mark.parametrize(
    ("answer", "prose"),
    [
        ('{"message": "Hello there. Bye."}', "Hello there. Bye."),
        ('{"message": "Line one.\\nLine two."}', "Line one.\nLine two."),
        ('{"message": "Say \\"hi\\" now.", "status": "ok"}', 'Say "hi" now.'),  # one-word values are fields
        ('{"message": "A \\u2014 B c.", "next_steps": ["Call us back.", "x"]}', "A \u2014 B c.\n\nCall us back."),
        ('{"message": "smile \\ud83d\\ude00 now"}', "smile \U0001f600 now"),
        ('[{"text": "first one"}, {"text": "second one"}]', "first one\n\nsecond one"),
    ],
)
def test_the_prose_of_a_json_answer_is_read_with_its_raw_places(answer: str, prose: str) -> None:
    view = read_json_answer(answer)
    assert view is not None and view.text == prose
    decoded = json.loads(answer)
    for i, ch in enumerate(view.text):
        if view.text[i : i + 2] == "\n\n" or view.text[i - 1 : i + 1] == "\n\n":
            continue
        raw = answer[view.starts[i] : view.ends[i]]
        assert json.loads(f'"{raw}"') == ch, (i, raw, decoded)


@pytest.mark.parametrize(
    "answer",
    ["Plain text.", '{"message": broken', '"a json string"', "42", '{"status": "ok"}', "[1, 2, 3]", "{not json} x"],
)
def test_other_answers_have_no_json_view(answer: str) -> None:
    assert read_json_answer(answer) is None


@pytest.mark.parametrize(
    "answer",
    [
        json.dumps({"message": "Your refund for order 88231 was successful.\nAnything else?"}),
        json.dumps({"message": "订单 88231 已为您成功退款。\n还有其他问题吗？"}, ensure_ascii=False),
        json.dumps({"message": "订单 88231 已为您成功退款。"}),  # \\u escapes
    ],
)
def test_a_json_answer_is_checked_like_its_prose(answer: str) -> None:
    report = CHECKER.check(answer, [REFUND_FAILED])
    assert not report.ok and report.flagged[0].verdict is Verdict.CONTRADICTED
    for claim in report.claims:
        assert answer[claim.start : claim.end] == claim.text
        for fact in claim.facts:
            assert answer[fact.start : fact.end] == fact.text
    ids = [f.text for c in report.claims for f in c.facts if f.kind.value == "identifier"]
    assert ids == ["88231"]  # "\\n" escapes and JSON keys are no identifiers


def test_an_answer_escaped_twice_is_read_as_its_text() -> None:
    answer = "Once you complete checkout:\\n1. Share the new order ID here\\n2. I will verify it"
    report = CHECKER.check(answer, [REFUND_FAILED])
    assert [c.text for c in report.claims] == ["Once you complete checkout:", "1. Share the new order ID here",
                                               "2. I will verify it"]
    assert not [f for c in report.claims for f in c.facts if f.kind.value == "identifier"]  # no "n1", "n2"
