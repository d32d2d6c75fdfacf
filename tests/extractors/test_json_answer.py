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


@pytest.mark.parametrize(
    ("answer", "view"),
    [
        # an id or a number under its key is a list line; a one-word key takes its container's key
        ('{"order_id": "#W3792453", "refund": {"amount": 54.04}}', "- order id: #W3792453\n- refund amount: 54.04"),
        ('{"items": [{"item_id": "4293355487"}, {"item_id": "8176740019"}]}',
         "- item id: 4293355487\n- item id: 8176740019"),
        ('{"tracking_ids": ["2864", "5915"]}', "- tracking ids: 2864\n- tracking ids: 5915"),
        # a key's parts with digits or signs name no field ("#W1_items" is "items"); a longer key stands alone
        ('{"#W1_items": {"price": 9.5}, "plan": {"new_monthly_total": 70}}',
         "- items price: 9.5\n- new monthly total: 70"),
        ('{"available_4ft_alternatives": [{"price": 510.02}], "abc1_total": 5}',
         "- available alternatives price: 510.02\n- total: 5"),
        # prose stays a paragraph of its own; enums without digits are the reply's fields
        ('{"status": "success", "message": "All done.", "order_id": "#W1"}', "All done.\n\n- order id: #W1"),
    ],
)
def test_ids_and_numbers_of_a_json_answer_are_read_as_labelled_lines(answer: str, view: str) -> None:
    read = read_json_answer(answer)
    assert read is not None and read.text == view
    for line in (part for part in read.text.split("\n") if part.startswith("- ")):
        value = line.rsplit(": ", 1)[1]
        at = read.text.index(line) + len(line) - len(value)
        start, end = read.raw_span(at, at + len(value))
        assert answer[start:end] == value


ORDER = {"name": "get_order_details", "args": {"order_id": "#W3792453"}, "status": "ok", "output": {
    "order_id": "#W3792453", "items": [{"name": "Skateboard", "item_id": "4293355847", "price": 180.1}]}}


@pytest.mark.parametrize(
    ("fields", "flagged"),
    [
        ({"order_id": "#W3792453", "from_item_id": "4293355847", "price": 180.1}, set()),
        ({"order_id": "#W3792453", "from_item_id": "4293355487", "price": 180.1}, {"4293355487"}),
        ({"order_id": "#W3792453", "from_item_id": "4293355847", "price": 108.1}, {"108.1"}),
    ],
)
def test_a_json_answers_fields_are_checked_at_their_raw_places(fields: dict, flagged: set) -> None:
    answer = json.dumps({"status": "exchange requested", "summary": fields}, indent=2)
    report = CHECKER.check(answer, [ORDER])
    found = {f.text for c in report.claims for f in c.facts if f.verdict.flagged}
    assert found == flagged
    for fact in (f for c in report.claims for f in c.facts):
        assert answer[fact.start : fact.end] == fact.text
