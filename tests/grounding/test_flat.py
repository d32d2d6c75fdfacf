"""The one walk over a tool output: shapes, places, paths and document order."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factcheck.grounding.flat import Flat, number_text


def places(flat: Flat) -> dict[str, str]:
    """Path of each distinct string."""
    return {text: flat.path(*ref) for bucket in flat.strings.values() for text, ref in bucket.items()}


@pytest.mark.parametrize(
    ("output", "root", "expected"),
    [
        ({"a": {"b": [1, {"c": "x"}]}}, "", {"x": "a.b[1].c"}),
        ([{"status": "ok"}, {"status": "failed"}], "", {"ok": "[0].status", "failed": "[1].status"}),
        ({"result": '{"status": "FAILED"}'}, "", {"FAILED": "result.status"}),
        ('{"items": [{"name": "mug"}]}', "", {"mug": "items[0].name"}),
        ("plain text log: refund FAILED", "", {"plain text log: refund FAILED": ""}),
        # a status line, then JSON to the end: the JSON's fields are read as fields
        ('HTTP 402: {"error": {"code": "PAST_DUE"}}', "", {"HTTP 402:": "text", "PAST_DUE": "body.error.code"}),
        ('Error [{"code": "E1"}]', "", {"Error": "text", "E1": "body[0].code"}),
        # not JSON to the end, not records, or more than a line before it: kept as text
        ('got {"a": "b"} twice', "", {'got {"a": "b"} twice': ""}),
        ('Found ["a"]', "", {'Found ["a"]': ""}),
        ('log\nmore\n{"a": "b"}', "", {'log\nmore\n{"a": "b"}': ""}),
        ({"qty": "2 boxes"}, "args", {"2 boxes": "args.qty"}),
        ({1: "one", "n": None, "b": b"caf\xc3\xa9"}, "", {"one": "1", "café": "b"}),
        ({"x": float("nan")}, "", {"nan": "x"}),
    ],
)
def test_strings_keep_their_place(output, root: str, expected: dict) -> None:
    assert places(Flat(0, root, output, 64)) == expected


def test_strings_are_kept_once_per_shape() -> None:
    flat = Flat(0, "", {"items": [{"status": "shipped"}] * 50 + [{"status": "pending"}]}, 64)
    assert flat.strings == {"items[].status": {"shipped": (2, "status"), "pending": (52, "status")}}
    assert places(flat) == {"shipped": "items[0].status", "pending": "items[50].status"}


def test_numbers_booleans_and_lists_are_columns() -> None:
    flat = Flat(0, "", {"total": 43.0, "paid": True, "items": [{"price": 12.5}, {"price": 18}], "n": 1e400}, 64)
    values, nodes, keys = flat.numbers["items[].price"]
    assert values == [12.5, 18]
    assert [flat.path(n, k) for n, k in zip(nodes, keys, strict=True)] == ["items[0].price", "items[1].price"]
    assert flat.numbers["total"][0] == [43.0]
    assert "n" not in flat.numbers and flat.strings["n"] == {"inf": (0, "n")}  # not finite: kept as text
    assert [(v, flat.path(node, key), shape) for v, node, key, shape in flat.bools] == [(True, "paid", "paid")]
    assert [(n, flat.node_path(node), shape) for n, node, shape in flat.lists] == [(2, "items", "items")]


def test_document_order_walk_gives_list_lengths_first() -> None:
    flat = Flat(3, "", {"a": [1, "x"], "b": {"c": 2.5}}, 64)
    assert list(flat.scalars()) == [
        ("a", "a", 2, True), ("a[0]", "a[]", 1, False), ("a[1]", "a[]", "x", False), ("b.c", "b.c", 2.5, False),
    ]


def test_depth_limit_stops_the_walk_without_recursion_errors() -> None:
    nested: list = []
    cur = nested
    for _ in range(5000):
        nxt: list = ["deep"]
        cur.append(nxt)
        cur = nxt
    flat = Flat(0, "", nested, 64)
    assert flat.too_deep and len(flat.nodes) == 64
    assert sum(1 for *_, is_count in flat.scalars() if is_count) == 64


@pytest.mark.parametrize(
    ("value", "text"),
    [(1299.0, "1299"), (0.15, "0.15"), (88231, "88231"), (-3.5, "-3.5"), (1e16, "1e+16"), (2**70, str(2**70))],
)
def test_number_text_is_how_an_answer_writes_it(value: float, text: str) -> None:
    assert number_text(value) == text
    assert math.isclose(float(number_text(value)), value)


class _ItemByItem(Flat):
    """The walk without the column-by-column path for flat records."""

    def _records(self, *args) -> bool:
        return False


def state(flat: Flat) -> tuple:
    """Everything a walk leaves behind, with dict orders made visible."""
    return (
        [flat.node(i) for i in range(len(flat.nodes))],
        [(shape, list(bucket.items())) for shape, bucket in flat.strings.items()],
        list(flat.numbers.items()),
        flat.bools,
        flat.lists,
        flat.too_deep,
    )


class Label(str):
    """A str subclass (not what JSON gives, but a caller's objects may be)."""


_RECORDS = [  # (records, walked by column)
    pytest.param([{"sku": "A-1", "price": 12.5, "qty": 2}, {"sku": "A-2", "price": 3, "qty": 1}], True, id="flat"),
    pytest.param([{"s": "shipped"}] * 40 + [{"s": "pending"}], True, id="repeated strings"),
    pytest.param([{"s": f"v{j % 20}"} for j in range(60)], True, id="many repeated strings"),
    pytest.param([{"a": None, "b": "x"}, {"a": "y", "b": "z"}], True, id="a column starts late"),
    pytest.param([{"a": None, "b": None}, {"b": 2, "a": "y"}], False, id="late columns in another key order"),
    pytest.param([{"a": None}, {"a": None}], True, id="all None"),
    pytest.param([{"a": "x", "b": 1}, {"b": 2, "a": "y"}], True, id="key order differs"),
    pytest.param([{"a": "x"}, {"b": "y"}], False, id="other keys"),
    pytest.param([{"a": "x"}, {"a": "y", "b": "z"}], False, id="more keys"),
    pytest.param([{"a": "x"}, ["not", "a", "record"]], False, id="not all records"),
    pytest.param([{"a": True}, {"a": False}], False, id="booleans"),
    pytest.param([{"a": 1}, {"a": "1"}], False, id="mixed kinds"),
    pytest.param([{"a": 1.5}, {"a": float("inf")}], False, id="not finite"),
    pytest.param([{"a": "x"}, {"a": ' {"status": "FAILED"}'}], False, id="JSON in a later string"),
    pytest.param([{"a": '[1, 2]'}, {"a": "y"}], False, id="JSON in the first string"),
    pytest.param([{"a": "[draft] note"}, {"a": "x"}], False, id="looks like JSON, is not"),
    pytest.param([{"a": "x\x00{y"}, {"a": "z"}], False, id="NUL before a brace"),
    pytest.param([{"a": {"b": 1}}, {"a": {"b": 2}}], True, id="nested records"),
    pytest.param([{"s": "x", "d": {"w": 1, "n": "p"}, "e": {"k": None}, "t": 2},
                  {"s": "y", "d": {"w": 2, "n": "q"}, "e": {"k": "late"}, "t": 3}], True, id="two nested records"),
    pytest.param([{"d": {"w": None, "v": 1}, "s": None}, {"s": "x", "d": {"v": 2, "w": "y"}}], False,
                 id="nested columns start late, in another key order"),
    pytest.param([{"d": {"w": 1}}, {"d": {"v": 1}}], False, id="nested records with other keys"),
    pytest.param([{"d": {"w": 1}}, {"d": None}], False, id="a nested record missing"),
    pytest.param([{"d": {"w": {"x": 1}}}, {"d": {"w": {"x": 2}}}], False, id="records nested twice"),
    pytest.param([{"d": {"w": [1]}}, {"d": {"w": [2]}}], False, id="a list in nested records"),
    pytest.param([{"a": [1, 2]}, {"a": []}], False, id="nested lists"),
    pytest.param([{1: "x"}, {1: "y"}], False, id="int keys"),
    pytest.param([{"a": Label("x")}, {"a": "y"}], True, id="str subclass"),
    pytest.param([{"a": b"x"}, {"a": b"y"}], False, id="bytes"),
    pytest.param([{}, {}], False, id="empty records"),
]


class _Spy(Flat):
    """Records whether each list of records was walked by column."""

    def _records(self, *args) -> bool:
        by_column = super()._records(*args)
        self.by_column = [*getattr(self, "by_column", []), by_column]
        return by_column


@pytest.mark.parametrize(("records", "by_column"), _RECORDS)
@pytest.mark.parametrize("depth", [1, 2, 3, 64])
def test_flat_records_walk_by_column_as_item_by_item(records: list, by_column: bool, depth: int) -> None:
    output = {"items": records, "after": [{"a": "later", "n": 1}]}
    flat = _Spy(0, "", output, depth)
    assert state(flat) == state(_ItemByItem(0, "", output, depth))
    if depth == 64:
        assert flat.by_column[0] is by_column


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, width=16),
    st.sampled_from(["x", "y", "", " [1]", "{bad", "[]"]),
)
_VALUES = st.one_of(_SCALARS, st.dictionaries(st.sampled_from("vw"), _SCALARS, max_size=2))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("abc"), _VALUES, max_size=3), min_size=1, max_size=6))
def test_any_list_of_dicts_walks_as_item_by_item(records: list) -> None:
    output = {"items": records, "again": records[:2]}
    assert state(Flat(0, "", output, 64)) == state(_ItemByItem(0, "", output, 64))


def test_present_fields_are_those_a_non_empty_value_fills() -> None:
    flat = Flat(0, "", {"sent_to": "", "in_transit": {"qty": 200}, "items": [{"n": 0}, {"n": 3}], "a": None}, 50)
    found = {f: (shape, flat.path(node, key), text) for f, (shape, node, key, text) in flat.present_fields().items()}
    assert found == {
        "in_transit.qty": ("in_transit.qty", "in_transit.qty", "200"),
        "in_transit": ("in_transit.qty", "in_transit.qty", "200"),
        "items[].n": ("items[].n", "items[1].n", "3"),
        "items[]": ("items[].n", "items[1].n", "3"),
    }


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("renewal blocked; fine_cents=150", {"fine_cents": [150]}),
        ("pool=pg-main active=50/50 waiting=37\nwaiting=61 max=9.1C", {"waiting": [37, 61]}),  # 50/50, 9.1C: no
        ("retry in 5 s (attempt=2, delay=1.5)", {"attempt": [2], "delay": [1.5]}),
        ("a == b, x= 3, 4=5", {}),
    ],
)
def test_key_number_pairs_of_a_text_are_fields(text: str, numbers: dict) -> None:
    flat = Flat(0, "", text, 64)
    assert {shape: values for shape, (values, _, _) in flat.numbers.items()} == numbers
    assert flat.strings == {"": {text: (-1, None)}}  # the text is kept whole as well
