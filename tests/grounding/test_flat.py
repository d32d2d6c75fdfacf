"""The one walk over a tool output: shapes, places, paths and document order."""

import math

import pytest

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
