"""The public `check()` contract: seeds, offsets, bad input, determinism, properties."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage

from factcheck import CheckerConfig, FactChecker, Report, Verdict, check
from factcheck.eval.suite import load_suite

CHECKER = FactChecker()
BLIND_H1372 = Path(__file__).resolve().parents[1] / "docs" / "blind-batches" / "h1372.jsonl"

SEEDS = [
    # seed 003: the tool said the refund failed
    ("已为您成功退款，订单号 88231。", ["refund result: 失败，订单号 88231 未退款"], ["已为您成功退款"]),
    # seed 000/002: the publishing run was narrated, never called
    (
        "文章已生成，拟人化评分 82 分，已发布至平台，链接 https://domain/item/fake-id，"
        "已登记到台账，登记号 CT-20260922-001。",
        [{"name": "generate_article", "args": {}, "output": {"title": "t"}, "status": "ok"}],
        ["https://domain/item/fake-id", "CT-20260922-001", "已发布"],
    ),
    # seed 001: a fake image URL with no image_generate call
    ("![生成的图片](https://example.com/images/generated_6a7b8c9d-0e1f-2a3b-4c5d.png)", [],
     ["https://example.com/images/generated_6a7b8c9d-0e1f-2a3b-4c5d.png"]),
    # seed 003: an empty case search reported as 3 cases
    ("已为您找到 3 个案例。", [{"name": "search_cases", "args": {}, "output": [], "status": "ok"}], ["找到 3 个案例"]),
]


@pytest.mark.parametrize(("answer", "tools", "spans"), SEEDS)
def test_seed_incidents_are_flagged(answer, tools, spans) -> None:
    report = check(answer, tool_calls=tools)
    assert not report.ok
    for span in spans:
        start = answer.index(span)
        assert any(c.start < start + len(span) and start < c.end for c in report.flagged), span


def test_report_shape_and_json_round_trip() -> None:
    report = check("已为您成功退款，订单号 88231。", tool_calls=["refund result: 失败，订单号 88231 未退款"])
    assert report.answer == "已为您成功退款，订单号 88231。"
    assert report.flagged and report.flagged[0].verdict == Verdict.CONTRADICTED
    assert "contradicted" in str(report) and "失败" in str(report)
    again = Report.model_validate_json(report.model_dump_json())
    assert again.claims[0].verdict == Verdict.CONTRADICTED
    assert json.loads(report.model_dump_json())["claims"][0]["verdict"] == "contradicted"


@pytest.mark.parametrize("bad", [None, b"bytes", 42, ["list"]])
def test_non_str_answer_raises_type_error(bad) -> None:
    with pytest.raises(TypeError, match="answer must be a str"):
        check(bad)


def test_empty_answer_has_no_claims() -> None:
    report = check("", tool_calls=[{"name": "x", "args": {}, "output": "y", "status": "ok"}])
    assert report.claims == [] and report.ok


def test_bad_tool_outputs_do_not_crash_and_are_noted() -> None:
    deep = "[" * 1000 + "]" * 1000
    nested: list = []
    cur = nested
    for _ in range(1000):
        nxt: list = []
        cur.append(nxt)
        cur = nxt
    tools = [b"\xff\xfe refund FAILED", "{not json", deep, nested, {"output": None}, {"output": 12}, "x" * 50]
    report = FactChecker(__import__("factcheck").CheckerConfig(max_output_chars=20, min_confidence=0)).check(
        "Your refund was approved.", tools
    )
    assert report.answer == "Your refund was approved."
    assert any("UTF-8" in n for n in report.notes)
    assert any("cut" in n for n in report.notes)
    assert any("deeper" in n for n in report.notes)
    assert report.claims[0].verdict == Verdict.CONTRADICTED


class _Record:
    """An object that is no tool call."""


@pytest.mark.parametrize(
    ("item", "kind"),
    [((1, 2), "tuple"), ({"approved"}, "set"), (_Record(), "_Record"), (AIMessage("approved"), "AIMessage")],
)
def test_a_tool_call_of_no_accepted_shape_is_a_type_error_naming_its_position(item, kind: str) -> None:
    good = {"name": "get_refund", "output": {"refund_status": "approved"}}
    with pytest.raises(TypeError, match=rf"^tool_calls\[1\] is {kind}, not a tool call: give a mapping .*ToolMessage"):
        check("Your refund was approved.", tool_calls=[good, item])


ACT_ON_EVERY_FLAG = FactChecker(CheckerConfig(min_confidence=0))


@pytest.mark.parametrize(
    ("item", "verdict", "notes"),
    [
        (12, Verdict.SUPPORTED, []),  # a bare JSON value is the output itself
        ({"output": 12}, Verdict.SUPPORTED, []),
        (None, Verdict.UNSUPPORTED, ["tool call 0 is None: read as a call that returned nothing"]),
    ],
)
def test_bare_json_values_are_outputs_and_none_is_noted(item, verdict: Verdict, notes: list[str]) -> None:
    report = ACT_ON_EVERY_FLAG.check("We found 12 related cases.", tool_calls=[item])
    assert [c.verdict for c in report.claims] == [verdict] and report.notes == notes


def test_tool_calls_must_be_a_list() -> None:
    with pytest.raises(TypeError, match="tool_calls must be a list"):
        check("ok", tool_calls={"name": "x"})


def test_deterministic() -> None:
    args = ("Refund of $45 approved; tracking SF1234567890.", [{"refund_amount": 30, "status": "declined"}])
    first = check(*args).model_dump(exclude={"elapsed_ms"})
    assert all(check(*args).model_dump(exclude={"elapsed_ms"}) == first for _ in range(3))


def test_a_run_is_read_the_same_whatever_was_checked_before_it() -> None:
    """A field path another run's output had (`result`, in h1372-004 and h1372-030 of the blind batches) is read the
    same way by a fresh checker and by one that has read it: a run's verdicts never depend on the runs checked
    before it in the same process."""
    cases = {case.id: case for case in load_suite([str(BLIND_H1372)])}
    earlier, run = cases["h1372-004"], cases["h1372-030"]

    def verdicts(checker: FactChecker) -> list[tuple[str, str, str]]:
        report = checker.check(run.answer, run.tool_call_dicts(), run.checker_context())
        return [(f.text, f.verdict.value, f.reason) for c in report.claims for f in c.facts]

    fresh = FactChecker(CheckerConfig(min_confidence=0))
    fresh.lexicon.path_cache.clear()
    alone = verdicts(fresh)
    warmed = FactChecker(CheckerConfig(min_confidence=0))
    warmed.lexicon.path_cache.clear()
    warmed.check(earlier.answer, earlier.tool_call_dicts(), earlier.checker_context())
    assert verdicts(warmed) == alone


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(answer=st.text(max_size=200), outputs=st.lists(json_values, max_size=3))
def test_never_raises_and_offsets_hold(answer: str, outputs: list) -> None:
    report = CHECKER.check(answer, outputs)
    assert report.answer == answer
    for claim in report.claims:
        assert answer[claim.start : claim.end] == claim.text
        for fact in claim.facts:
            assert answer[fact.start : fact.end] == fact.text


PIECES = ["已退款", "订单号 88231", "$42.50", "5.2%", "Dec. 3", "Mr. Smith", "。", ". ", "，", "\n",
          "refund failed", "https://x.example/a", "Monday, Dec. 7", "9月26日 周六", "Gold member", "您目前是铂金会员",
          "¥45", "100 points = $1", "| Mug | $18.00 |", '"refund failed"', "「支付成功」", "didn’t", "0 in stock",
          "two weeks", "back to your card", "原路退回"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_offsets_on_tricky_pieces(pieces: list[str]) -> None:
    answer = "".join(pieces)
    for claim in CHECKER.check(answer).claims:
        assert answer[claim.start : claim.end] == claim.text


RECORD_VALUES = st.sampled_from(
    ["MU5401", "CA4508", 980, 1260.0, 980.0, "980", "2026-12-03", "2026-12-06", "--12-06", "store_credit", "card",
     "wechat_pay", "cancelled", "已取消", True, None, [], {"fare": 980}, "a.b", "中国国航", ""]
)
RECORDS = st.lists(
    st.dictionaries(
        st.sampled_from(["flight_no", "fare", "check_in", "check_out", "destination", "booking_status", "name", "a.b"]),
        RECORD_VALUES, max_size=5,
    ),
    max_size=4,
)
ANSWER_PIECES = [
    "MU5401", "CA4508", "票价 980 元", "$1,260", "Dec. 3", "Dec. 6", "12月3日", "3 nights", "two weeks", "共 3 晚",
    "back to your credit card", "退回到您的微信支付", "原路退回", "「已取消」", '"refund failed"', "booking confirmed",
    "中国国航", "，", "。", ". ", " ", "\n",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ANSWER_PIECES), max_size=14), st.lists(st.dictionaries(
    st.sampled_from(["flights", "items", "records"]), RECORDS, min_size=1, max_size=2), max_size=2))
def test_never_raises_on_records_dates_and_methods(pieces: list[str], outputs: list) -> None:
    """Answers that name records, durations, payment methods and quoted titles, against lists of records."""
    answer = "".join(pieces)
    calls = [{"name": "search_flights", "args": {}, "output": out, "status": "ok"} for out in outputs]
    report = CHECKER.check(answer, calls)
    assert report.answer == answer
    assert report.model_dump(exclude={"elapsed_ms"}) == CHECKER.check(answer, calls).model_dump(exclude={"elapsed_ms"})
    for claim in report.claims:
        assert answer[claim.start : claim.end] == claim.text
        for fact in claim.facts:
            assert answer[fact.start : fact.end] == fact.text


def test_a_check_leaves_no_cycle_behind() -> None:
    """The evidence of a check is freed when it ends, without waiting for the cyclic collector.

    A reference cycle through the index keeps a large tool output alive until a full collection,
    which made 1 MB checks about 20% slower.
    """
    import gc

    from factcheck.grounding.evidence import EvidenceIndex

    calls = [{"name": "list_orders", "args": {}, "output": [{"order_id": "O-1", "status": "shipped"}], "status": "ok"}]
    gc.collect()
    gc.disable()
    try:
        CHECKER.check("Order O-1 has shipped, and 1 of the 1 orders is on its way.", calls)
        assert not [o for o in gc.get_objects() if isinstance(o, EvidenceIndex)]
    finally:
        gc.enable()


def test_a_column_of_huge_numbers_does_not_overflow() -> None:
    """The float pre-check of a column's total overflows here (found by hypothesis): no match, no crash."""
    report = check("0", tool_calls=[[{"": 8.988465674311579e307}, {"": 8.98846567431158e307}]])
    assert [f.verdict for c in report.claims for f in c.facts] == [Verdict.UNSUPPORTED]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # numbers longer than Decimal's default 28 digits are still compared exactly (found by hypothesis)
        ("It is 10,000,000,000,000,000,000,000,000,001.", Verdict.SUPPORTED),
        ("It is 10,000,000,000,000,000,000,000,000,000.", Verdict.UNSUPPORTED),
    ],
)
def test_long_numbers_are_compared_exactly(answer: str, expected: Verdict) -> None:
    output = "total: 10,000,000,000,000,000,000,000,000,001"
    report = check(answer, tool_calls=[{"name": "lookup", "args": {}, "output": output}])
    assert [f.verdict for c in report.claims for f in c.facts] == [expected]


def test_a_log_with_the_claimed_numbers_on_every_line_backs_them() -> None:
    lines = [f"2026-12-01T02:{10 + i % 50}:00Z WARN pool=pg-main waiting={i % 90} acquire_timeout_ms=3000"
             for i in range(5000)]
    report = CHECKER.check("61 requests were waiting, and a request times out after 3000 ms.",
                           [{"name": "read_log", "output": "\n".join(lines)}])
    facts = [f for claim in report.claims for f in claim.facts if f.kind.value == "number"]
    assert [(f.text, f.verdict) for f in facts] == [("61", Verdict.SUPPORTED), ("3000", Verdict.SUPPORTED)]


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("The refund amount was $45.00.", Verdict.SUPPORTED), ("The refund amount was $130.00.", Verdict.CONTRADICTED)],
)
def test_a_long_log_naming_a_field_is_read_where_it_names_it(answer: str, verdict: Verdict) -> None:
    lines = [f"2026-12-01T02:{10 + i % 50}:00Z INFO refund_id=R{1000 + i} refund_amount={1 + i % 90}.00 status=ok"
             for i in range(3000)]
    report = ACT_ON_EVERY_FLAG.check(answer, [{"name": "read_log", "output": "\n".join(lines)}])
    assert [f.verdict for claim in report.claims for f in claim.facts] == [verdict]


def test_reports_do_not_depend_on_the_hash_seed() -> None:
    """Sets of record keys once ordered a wrong-record flag's evidence by the interpreter's hash seed."""
    import json
    import os
    import subprocess
    import sys

    script = (
        "import json\n"
        "from factcheck import check\n"
        "calls = [{'name': 'get_order_details', 'args': {'order_id': '#W7710233'},"
        " 'output': {'order_id': '#W7710233', 'user_id': 'u1', 'email': 'a@b.co', 'tracking': '772015398644'}},"
        " {'name': 'get_order_details', 'args': {'order_id': '#W7710961'},"
        " 'output': {'order_id': '#W7710961', 'user_id': 'u1', 'email': 'a@b.co', 'tracking': '990011223344'}}]\n"
        "r = check('Your headphones (order #W7710961) ship with tracking 772015398644.', calls)\n"
        "print(json.dumps(r.model_dump(mode='json', exclude={'elapsed_ms'}), sort_keys=True))\n"
    )
    outs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
        outs.add(done.stdout)
    assert len(outs) == 1
    report = json.loads(outs.pop())
    assert any(f["code"] == "wrong_record" for c in report["claims"] for f in c["facts"])
