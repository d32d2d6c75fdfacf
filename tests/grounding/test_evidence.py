"""Evidence searches: what a claim looks for is found wherever and however the tool wrote it."""

import json
from decimal import Decimal, localcontext

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck import CheckerConfig, FactChecker, Verdict
from factcheck.extractors.mentions import MentionExtractor
from factcheck.grounding.evidence import EvidenceIndex
from factcheck.grounding.flat import Flat, number_text
from factcheck.report import FactKind

CHECKER = FactChecker(CheckerConfig(min_confidence=0))  # grounding verdicts, before any abstention
S, C, U = Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.UNSUPPORTED
SKUS = [{"sku": f"A{i}"} for i in range(200)]


def call(name: str, output, status: str = "ok", args: dict | None = None) -> dict:
    return {"name": name, "args": args or {}, "output": output, "status": status}


def fact_verdicts(answer: str, tool_calls: list) -> list[tuple[str, Verdict]]:
    report = CHECKER.check(answer, tool_calls)
    return [(f.text, f.verdict) for c in report.claims for f in c.facts]


@pytest.mark.parametrize(
    ("answer", "tools", "expected"),
    [
        # numbers inside text, however written
        ("电话尾号 0932。", [call("get_courier", "电话 186****0932")], S),
        ("Balance $1,299.", [call("get_account", "balance: 1,299.00 USD")], S),
        ("余额 12000 元。", [call("get_account", "余额 1.2万 元")], S),
        ("A 15% discount.", [call("quote", "discount 15 percent")], S),
        ("Refund of $45.", [call("refund", "refund amount: 30 USD")], C),
        ("I see 45 there.", [call("lookup", "SKU-45123 and 1045")], U),
        ("Rate 0.15.", [call("quote", "rate 0.15 applied to 120.5")], S),
        ("I see 3 items.", [call("log", "shipped Dec. 3 " + "x " * 60 + "then SKU-30003 and 13 more")], U),
        ("I see 3 items.", [call("log", "shipped Dec. 3 " + "x " * 60 + "then 3 more")], S),
        ("Refund of $45.", [call("log", "x " * 80 + "refund amount: 30 USD, order amount 45 USD")], C),
        ("Rate 0.15.", [call("quote", "rate 0.16 applied to 10.15")], C),  # the rate is 0.16; 10.15 is no 0.15
        # numbers in JSON fields
        ("Refund of $45.00.", [call("refund", {"refund_amount_cents": 4500})], S),
        ("Refund of $45.00.", [call("refund", {"refund_amount_cents": 4000})], C),
        ("The price is $12.99.", [call("order", {"items": [{"price": 3.5}] * 300 + [{"price": 12.99}]})], S),
        ("订单号 88231。", [call("order", {"order": {"id": 88231}})], S),
        ("订单号 88321。", [call("order", {"order": {"id": 88231}})], U),
        ("Quantity 3.", [call("order", {"ok": True}, args={"qty": 3})], S),
        # dates and times inside text
        ("Shipped on Dec. 3.", [call("ship", {"log": "shipped 2026-12-03 10:00"})], S),
        ("12月3日发货。", [call("ship", {"log": "shipped Dec 3, 2026"})], S),
        ("Shipped on Dec. 4.", [call("ship", {"log": "shipped 2026-12-03"})], C),  # a day off, never said
        ("Delivery at 2:30 pm.", [call("ship", {"eta": "14:30"})], S),
        ("Delivery at 3 pm.", [call("ship", {"eta": "14:30"})], C),  # the ETA moved, never said
        ("Delivery at 3 pm.", [call("ship", {"eta": "明天下午3点"})], S),
        ("Shipped on Dec. 3.", [call("ship", {"log": "已于 12 月 3 日发货"})], S),
        ("Shipped on Dec. 3.", [call("ship", {"log": "已于１２月３日发货"})], S),
        # statuses: by field, by tool name, by a boolean's key, deep in a list
        ("Your refund was approved.", [call("lookup", {"refund": {"state": "declined"}})], C),
        ("退款成功。", [call("refund_order", {"status": "FAILED"})], C),
        ("The refund went through.", [call("lookup", {"refunded": False})], C),
        ("It has shipped.", [call("orders", {"items": SKUS + [{"status": "shipped"}]})], S),
        ("Booking confirmed.", [call("lookup", '{"data": "{\\"booking_status\\": \\"failed\\"}"}')], C),
    ],
)
def test_claims_find_their_evidence(answer: str, tools: list, expected: Verdict) -> None:
    report = CHECKER.check(answer, tools)
    assert report.claims[0].verdict == expected, fact_verdicts(answer, tools)


def test_evidence_names_the_path_of_the_value() -> None:
    items = [{"price": 3.5}] * 3 + [{"price": 12.99}]
    report = CHECKER.check("The price is $12.99.", [call("order", {"items": items})])
    assert report.claims[0].facts[0].evidence[0].path == "items[3].price"


def test_same_answer_and_evidence_give_the_same_report() -> None:
    tools = [call("order", {"items": [{"price": 3.5, "status": "shipped"}, {"price": 12.99, "status": "pending"}]})]
    answer = "It shipped. The price is $12.99, not $3.60."
    first = CHECKER.check(answer, tools).model_dump(exclude={"elapsed_ms"})
    assert all(CHECKER.check(answer, tools).model_dump(exclude={"elapsed_ms"}) == first for _ in range(3))


# ---------- property: the searches agree with reading every value ----------
_leaf = st.one_of(
    st.integers(min_value=0, max_value=10**7),
    st.decimals(min_value=0, max_value=10**5, places=2, allow_nan=False).map(float),
    st.from_regex(r"[a-z ]{0,8}(?:0?[1-9]\d{0,4}(?:\.\d{1,2})?)[a-z %元]{0,6}", fullmatch=True),
)
_words = st.from_regex(
    r"(?:[a-z]{1,8}|0?[1-9]\d{0,4}(?:\.\d{1,2})?|Dec\.? [1-9]|SKU-\d{5}|\d{1,2}月\d{1,2}日|[0-9]{1,3}(?:,\d{3})+)",
    fullmatch=True,
)
_long_text = st.lists(_words, min_size=30, max_size=80).map(" ".join)  # read in windows around hits
_leaf = st.one_of(_leaf, _long_text)
_json = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["a", "b", "item", "note", "x"]), inner, max_size=4), max_leaves=20)


def _every_number(value) -> list[Decimal]:
    """Brute force: every number a tool output states, read value by value at the checker's precision (a number
    scaled by its unit, "1,000,…,001 k", is not rounded at 28 digits)."""
    extractor = MentionExtractor(CHECKER.lexicon)
    out = []
    with localcontext() as exact:
        exact.prec = 100
        for _, _, v, is_count in Flat(0, "", value, 64).scalars():
            if is_count or isinstance(v, bool):
                continue
            if isinstance(v, (int, float)):
                out.append(Decimal(number_text(v)))
            elif isinstance(v, str):
                out += [Decimal(m.value) for m in extractor.extract(v, words=False) if m.kind == FactKind.NUMBER]
    return out


@settings(max_examples=150, deadline=None)
@given(_json)
def test_every_number_the_tool_states_is_found(output) -> None:
    for number in _every_number(output)[:5]:
        with localcontext() as exact:  # as the checker reads it: long numbers are not rounded at 28 digits
            exact.prec = 100
            answer = f"It is {format(number.normalize(), ',f')}."  # grouped: seven bare digits read as an ID
        facts = CHECKER.check(answer, [call("lookup", output)]).claims[0].facts
        assert facts and all(f.verdict == S for f in facts), (answer, output)


DOC = {"flights": [{"fare": 1260.0, "ok": True, "dims": {"w": 3}}, {"fare": "980", "a.b": 5}], "n": 1e400}


@pytest.mark.parametrize(
    ("path", "value", "number"),
    [
        ("flights[0].fare", 1260.0, "1260"),
        ("flights[0].dims.w", 3, "3"),
        ("flights[0]", DOC["flights"][0], None),
        ("flights[1].fare", "980", None),  # a string is not a JSON number
        ("flights[0].ok", True, None),  # nor is a boolean
        ("flights[2].fare", None, None),  # past the end
        ("flights[1].a.b", None, None),  # a key holding a dot is not reached: nothing is read instead
        ("n", float("inf"), None),  # not finite
        ("missing", None, None),
    ],
)
@pytest.mark.parametrize("as_text", [False, True])
def test_value_and_number_at_a_path(path: str, value, number: str | None, as_text: bool) -> None:
    output = json.dumps(DOC) if as_text else DOC
    index = EvidenceIndex(
        [call("search_flights", output)], [], CHECKER.config, CHECKER.lexicon, CHECKER._mentions, CHECKER._statuses
    )
    assert index.value_at(0, path) == value
    found = index.number_at(0, path)
    assert (found.mention.value if found else None) == number
    if found is not None:
        assert (found.leaf.path, found.leaf.index) == (path, 0)


@pytest.mark.parametrize(
    ("shape", "labels"),
    [
        ("refund.amount", {"refund", "amount"}),
        ("items[].qty", {"quantity"}),
        ("items[].sku", set()),  # the list's name counts items: it makes no field of an item a quantity
        ("items_refunded[].amount", {"refund", "amount"}),  # other labels of a list's name stay
        ("cases[].title", set()),
        ("orders[].items[].qty", {"quantity"}),
        ("items", {"quantity"}),  # the list itself (its length)
    ],
)
def test_field_labels_of_a_path_shape(shape: str, labels: set[str]) -> None:
    index = EvidenceIndex([], [], CHECKER.config, CHECKER.lexicon, CHECKER._mentions, CHECKER._statuses)
    assert set(index.path_info(shape)[0]) == labels


_LOG = "\n".join(f"02:{i % 60:02d} GET /api/orders 200 in 41 ms" for i in range(400))


@pytest.mark.parametrize(
    ("answer", "log", "expected"),
    [
        # a number of a thousand or more, written with a magnitude word deep inside a long log
        ("The cache served 3,000 requests.", _LOG + "\ncache served 3k requests\n" + _LOG, [("3,000", S)]),
        ("缓存共有 12,000 条记录。", _LOG + "\n缓存 1.2 万条记录\n" + _LOG, [("12,000", S)]),
        ("The cache served 4,000 requests.", _LOG + "\ncache served 3k requests\n" + _LOG, [("4,000", U)]),
    ],
)
def test_a_magnitude_number_in_a_long_text_is_found_where_it_stands(answer, log, expected) -> None:
    assert fact_verdicts(answer, [call("get_logs", log)]) == expected
