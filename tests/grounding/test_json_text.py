"""JSON text within bounds: a text cut at the size limit read up to the cut, deep text read to the depth limit."""

import json

import pytest

from factcheck import CheckerConfig, FactChecker
from factcheck.grounding.flat import Flat
from factcheck.grounding.json_text import parse_json, read_cut_json


@pytest.mark.parametrize(
    ("text", "value", "last"),
    [
        ('{"a": 1, "b": [1, 2, 3', {"a": 1, "b": [1, 2]}, "b[1]"),  # 3 may be 30: dropped
        ('{"a": 1, "b": [1, 2, 3]', {"a": 1, "b": [1, 2, 3]}, "b"),  # a closed list is complete
        ('{"a": "x", "b": "app', {"a": "x"}, "a"),  # a string cut inside
        ('{"a": "x", "b": "approved"', {"a": "x", "b": "approved"}, "b"),  # a complete string value
        ('{"a": "x", "b"', {"a": "x"}, "a"),  # a key without its value
        ('{"a": "x", "b": ', {"a": "x"}, "a"),
        ('{"a": "x", "b": {"c": 1, "d": tr', {"a": "x", "b": {"c": 1}}, "b.c"),
        ('{"a": "x", "b": {"c', {"a": "x"}, "a"),  # a container left empty is dropped
        ('[{"id": 1}, {"id": 2}, {"id"', [{"id": 1}, {"id": 2}], "[1]"),
        ('[{"id": 1}, {"id": 2}, ', [{"id": 1}, {"id": 2}], "[1]"),
        ('[{"id": 1, "s": "a"}, {"id": 2, "s"', [{"id": 1, "s": "a"}], "[0]"),  # a record cut: dropped whole
        ('{"n": 3, "items": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": ["b", "c"]', {"n": 3, "items": [
            {"id": 1, "tags": ["a"]}]}, "items[0]"),  # a record holding the cut list too
        ('{"meta": {"id": 1, "s": "a"}, "page": {"n": 2, "s"', {"meta": {"id": 1, "s": "a"}, "page": {"n": 2}},
         "page.n"),  # an object that is no record keeps its complete fields
        ('{"q": "a \\" [ { b", "r": "c\\\\", "s": "[{', {"q": 'a " [ { b', "r": "c\\"}, "r"),  # escapes, brackets
        ('{"a": {"b": {"c": [', None, None),  # nothing complete
        ('{"a": 1', None, None),
        ("[1, 2] and then", None, None),  # not the start of JSON
        ('{"a": 1}}', None, None),
        ('{"a" 1, "b": [', None, None),  # malformed before the cut
    ],
)
def test_read_cut_json(text: str, value, last) -> None:
    found = read_cut_json(text)
    assert found == (None if value is None else (value, last))


def test_a_cut_text_keeps_what_it_holds() -> None:
    doc = {"status": "shipped", "items": [{"sku": f"S-{i}", "qty": i % 4, "note": "a, [b] {c}"} for i in range(500)]}
    text = json.dumps(doc)
    for cut in range(len(text) // 2, len(text) - 1, 997):  # cut at many different places
        value, last = read_cut_json(text[:cut])
        kept = value["items"]
        whole = doc["items"][: len(kept)]
        assert value["status"] == "shipped" and kept[:-1] == whole[:-1]
        assert kept[-1].items() <= whole[-1].items()  # the last record: its complete fields
        assert last.startswith(f"items[{len(kept) - 1}]")


def _nested_text(depth: int) -> str:
    return '{"a": ' * depth + '{"refund_status": "approved", "items": [1, 2]}' + "}" * depth


def _nested_dict(depth: int) -> dict:
    value: dict = {"refund_status": "approved", "items": [1, 2]}
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.mark.parametrize("depth", [10, 63, 64, 65, 1200, 5000])
def test_deep_text_is_walked_as_the_parsed_value_is(depth: int) -> None:
    from_text = Flat(0, "", _nested_text(depth), 64)
    from_value = Flat(0, "", _nested_dict(depth), 64)
    assert (from_text.too_deep, from_text.strings, from_text.numbers, from_text.lists) == (
        from_value.too_deep, from_value.strings, from_value.numbers, from_value.lists
    )
    assert from_text.too_deep == (depth + 1 >= 64)  # the list of the innermost dict is one deeper
    assert isinstance(from_text.value, dict)


def test_deep_text_with_brackets_in_strings() -> None:
    text = '{"t": "]]}}[[{", "d": ' + "[" * 2000 + "]" * 2000 + ', "u": "}"}'
    assert parse_json(text, 3) == {"t": "]]}}[[{", "d": [[{}]], "u": "}"}
    assert parse_json(text) is None  # without a depth limit it stays text, as json.loads leaves it


CHECKER = FactChecker()


@pytest.mark.parametrize(
    ("output", "note"),
    [
        (_nested_text(1000), "tool call 0: JSON deeper than 64 levels not read below that depth"),
        (_nested_dict(1000), "tool call 0: JSON deeper than 64 levels not read below that depth"),
    ],
)
def test_deep_json_text_is_noted_as_a_deep_dict_is(output, note) -> None:
    report = CHECKER.check("Your refund was approved.", [{"name": "get_refund", "output": output}])
    assert report.notes == [note]
    as_dict = CHECKER.check("Your refund was approved.", [{"name": "get_refund", "output": _nested_dict(1000)}])
    assert [c.verdict for c in report.claims] == [c.verdict for c in as_dict.claims]


def test_cut_json_text_is_read_as_json_up_to_the_cut() -> None:
    doc = {"refund_status": "approved", "refund_amount": 45.0, "items": [{"sku": f"S-{i}"} for i in range(100)]}
    text = json.dumps(doc)
    checker = FactChecker(CheckerConfig(max_output_chars=len(text) - 40))
    report = checker.check("Your refund of $45.00 was approved.", [{"name": "get_refund", "output": text}])
    assert report.ok
    assert {ev.path for claim in report.claims for ev in claim.evidence} == {"refund_status", "refund_amount"}
    assert report.notes == [
        f"tool call 0 output cut from {len(text):,} to {len(text) - 40:,} characters",
        "tool call 0: JSON cut at the limit read up to its last complete value (items[96]); "
        "the values after it were dropped",
    ]
