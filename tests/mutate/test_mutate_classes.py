"""Each mistake class gives an exact span of a wrong value; each rewrite keeps every exact fact."""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from mutate_sources import MISTAKE_SOURCES, REWRITE_SOURCES, ZH_MISTAKE_SOURCES, ZH_REWRITE_SOURCES, call, case

from factcheck.eval.suite import parse_case
from factcheck.mutate import MISTAKES, REWRITES, mutate_cases
from factcheck.mutate.values import lexicon, read_transcript

MISTAKE_TABLE = [(name, "en", src) for name, src in MISTAKE_SOURCES.items()] + [
    (name, "zh", src) for name, src in ZH_MISTAKE_SOURCES.items()]
REWRITE_TABLE = [(name, "en", src) for name, src in REWRITE_SOURCES.items()] + [
    (name, "zh", src) for name, src in ZH_REWRITE_SOURCES.items()]
_ZH = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def test_every_class_has_a_source_case():
    assert set(MISTAKE_SOURCES) == set(MISTAKES)
    assert set(REWRITE_SOURCES) == set(REWRITES)


def _only(name: str, src: dict) -> dict:
    out = mutate_cases([src], classes=[name], per_answer=1, seed=3)
    assert [c["error"] for c in out] == [name], f"{name} did not apply to {src['answer']!r}"
    return out[0]


@pytest.mark.parametrize(("name", "lang", "src"), MISTAKE_TABLE, ids=[f"{n}-{lang}" for n, lang, _ in MISTAKE_TABLE])
def test_mistake_spans_a_wrong_value_that_occurs_in_the_answer(name, lang, src):
    out = _only(name, src)
    case = parse_case(out)  # the case format, exactly: spans occur in the answer
    assert case.hallucinated and case.error == name and case.in_outputs is not None
    assert case.kinds and case.note and case.source == src["source"] and case.license == "MIT"
    for span in case.hallucinated_spans:
        assert case.answer.count(span) == 1
    changed_run = out["tool_calls"] != src["tool_calls"]
    if changed_run:  # the answer stays; the run lost what backed the span
        assert case.answer == src["answer"]
        assert all(span in src["answer"] for span in case.hallucinated_spans)
    else:  # the wrong value differs from what the answer said there
        assert case.answer != src["answer"]
        assert not all(span in src["answer"] for span in case.hallucinated_spans)


@pytest.mark.parametrize(("name", "expected"), [
    ("status_flip", "Your order #W4923227 is pending."),
    ("wrong_direction", "A charge of $30.00 goes back to your card."),
    ("per_unit_as_total", None),
    ("wrong_selection", "The cheapest is the Pro Plan at $10."),
])
def test_mistakes_follow_the_answer_format(name, expected):
    out = _only(name, MISTAKE_SOURCES[name])
    if expected is not None:
        assert out["answer"] == expected
    else:  # a per-unit amount written like the total was: sign, two decimals
        assert re.fullmatch(r"The order total is \$(100|50)\.00\.", out["answer"])
        assert out["in_outputs"] is True


def test_digit_change_is_hard_and_other_record_is_easy():
    hard = _only("digit_change", MISTAKE_SOURCES["digit_change"])
    easy = _only("wrong_record", MISTAKE_SOURCES["wrong_record"])
    assert hard["in_outputs"] is False and easy["in_outputs"] is True


def test_unbacked_action_removes_the_call_and_marks_the_claim():
    out = _only("unbacked_action", MISTAKE_SOURCES["unbacked_action"])
    assert [c["name"] for c in out["tool_calls"]] == ["get_order_details"]
    assert out["hallucinated_spans"] == ["Your order #W4923227 has been cancelled."]


def test_unbacked_action_marks_every_report_no_call_left_backs():
    source = case("Your order #W4923227 has been modified. A refund of $17.99 has been issued to your card.",
                  [call("get_order_details", {"order_id": "#W4923227"}),
                   call("modify_pending_order_items", {"order_id": "#W4923227", "status": "pending"})])
    out = _only("unbacked_action", source)
    assert [c["name"] for c in out["tool_calls"]] == ["get_order_details"]
    assert out["hallucinated_spans"] == ["Your order #W4923227 has been modified.",
                                         "A refund of $17.99 has been issued to your card."]


def test_user_claim_is_added_to_the_question():
    out = _only("user_claim_over_record", MISTAKE_SOURCES["user_claim_over_record"])
    claim = lexicon()["user_claim"]["en"].format(value=out["hallucinated_spans"][0])
    assert out["question"].endswith(claim)


def _values(text: str) -> set:
    """Every number an answer states, however written ($1.24k, 1,240.00, three, 三), and its ids."""
    words = lexicon()["number_words_en"]
    found: set = set()
    for m in re.finditer(r"\d[\d,]*(?:\.\d+)?(k)?", text):
        value = Decimal(m.group().rstrip("k").replace(",", ""))
        found.add((value * 1000 if m.group(1) else value).normalize())
    for m in re.finditer(r"\b(" + "|".join(words) + r")\b", text, flags=re.IGNORECASE):
        found.add(Decimal(words.index(m.group().lower())).normalize())
    for ch in re.findall(r"[一二两三四五六七八九](?=[个名条件张位])", text):
        found.add(Decimal(_ZH[ch]))
    months = lexicon()["months_en"]
    for m in re.finditer(r"(" + "|".join(months) + r") (\d{1,2}), (\d{4})", text):
        found |= {Decimal(months.index(m.group(1)) + 1), Decimal(m.group(2)), Decimal(m.group(3))}
    found |= {Decimal(x) for x in re.findall(r"(\d+)[年月日]", text)}
    return found


@pytest.mark.parametrize(("name", "lang", "src"), REWRITE_TABLE, ids=[f"{n}-{lang}" for n, lang, _ in REWRITE_TABLE])
def test_rewrite_keeps_every_exact_fact(name, lang, src):
    out = _only(name, src)
    case = parse_case(out)
    assert case.hallucinated_spans == [] and case.error == name and case.in_outputs is None
    assert case.answer != src["answer"] and case.tool_calls == parse_case(src).tool_calls
    assert _values(src["answer"]) <= _values(case.answer), (src["answer"], case.answer)
    ids = set(re.findall(r"#W\d+", src["answer"]))
    assert ids == set(re.findall(r"#W\d+", case.answer))


def test_a_chinese_date_keeps_apart_from_the_hour_after_it():
    out = _only("date_format", ZH_REWRITE_SOURCES["date_format"])
    assert out["answer"] == "会议定在2024-05-17 10点。"


def test_derived_value_writes_the_correct_total():
    out = _only("derived_value", REWRITE_SOURCES["derived_value"])
    assert out["answer"].endswith("\n" + lexicon()["derived_total"]["en"].format(value="$150.00"))


@pytest.mark.parametrize(("answer", "expected"), [
    ("I've sent the T-Shirt's refund of $86.00.", "I\u2019ve sent the T\u2011Shirt\u2019s refund of **$86.00**."),
    ("Invoice INV-2207 (USB-C hub) is $1,240.", "Invoice INV\u20112207 (USB\u2011C hub) is **$1,240**."),
    ("It ships 2024-05-17, in 5-7 days; call 555-0100.", None),  # dates, ranges and phones keep their hyphens
    ("**Total: $45.20** and *$45.20*", None),  # amounts already emphasised stay as they are
    ('{"message": "You\'re all set:\\n- $45.20 paid"}', '{"message": "You\u2019re all set:\\n- **$45.20** paid"}'),
], ids=["apostrophes-hyphens-bold", "ids", "digits-only", "emphasised", "json"])
def test_typography_typesets_words_and_amounts_only(answer, expected):
    t = read_transcript(case(answer, [call("get_order_details", {"order_id": "#W4923227", "total": 45.2,
                                                                 "refund": 86, "amount": 1240})]))
    edit = REWRITES["typography"](t, random.Random(0))
    assert (edit.answer if edit else None) == expected


def test_classes_apply_only_where_the_run_supports_them():
    # no tool output says "delivered": the status word cannot be flipped; no list: no count, no total
    bare = read_transcript({"id": "x-1-1", "lang": "en", "answer": "Your order is delivered, 3 items in all.",
                            "tool_calls": [{"name": "ping", "args": {}, "output": "ok", "status": "ok"}]})
    rng = random.Random(0)
    for name in ("status_flip", "wrong_count", "per_unit_as_total", "wrong_subset_total", "incomplete_coverage",
                 "unbacked_action", "wrong_selection"):
        assert MISTAKES[name](bare, rng) is None, name
