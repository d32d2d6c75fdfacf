"""Loading and validating suites in the case format."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from eval_helpers import MINI, make_case

from factcheck.eval.suite import (
    BUNDLED_SUITE,
    KINDS,
    SuiteError,
    bundled_suite_path,
    load_suite,
    load_suite_file,
    parse_case,
    span_ranges,
)

PACKAGE_EVAL = Path(__file__).resolve().parents[2] / "factcheck" / "eval"


def _good(**over):
    obj = {
        "id": "x1", "lang": "zh", "domain": "refund", "question": "退款了吗？",
        "tool_calls": [{"name": "refund", "args": {"order_id": "1"},
                        "output": "refund result: FAILED", "status": "ok"}],
        "answer": "已为您成功退款。", "hallucinated_spans": ["已为您成功退款"],
    }
    obj.update(over)
    return obj


def _write(tmp_path: Path, lines: list[str], name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_fixture_loads_with_all_fields():
    cases = load_suite([MINI])
    assert [c.id for c in cases][:2] == ["mini-zh-flip", "mini-en-shipped"]
    flip = cases[0]
    assert flip.hallucinated and flip.kinds == ["status_flip"]
    assert flip.retry_spans == []
    assert flip.tool_call_dicts()[0]["output"]["refund_status"] == "FAILED"
    assert flip.checker_context() == [flip.question]
    ctx = next(c for c in cases if c.context)
    assert ctx.checker_context() == [ctx.question, *ctx.context]


def test_malformed_line_names_file_and_line(tmp_path):
    path = _write(tmp_path, [json.dumps(_good()), "", '{"id": "x2", "lang": '])
    with pytest.raises(SuiteError, match=r"s\.jsonl:3: invalid JSON"):
        load_suite([path])


def test_span_not_in_answer_is_an_error_naming_line_and_case(tmp_path):
    path = _write(tmp_path, [json.dumps(_good()),
                             json.dumps(_good(id="x2", hallucinated_spans=["299 元"]))])
    with pytest.raises(SuiteError) as err:
        load_suite_file(path)
    msg = str(err.value)
    assert "s.jsonl:2" in msg and "'x2'" in msg and "does not occur in answer" in msg


@pytest.mark.parametrize(
    ("over", "needle"),
    [
        ({"lang": "fr"}, "lang"),
        ({"kinds": ["typo"]}, "kinds[0]"),
        ({"hallucination_spans": []}, "hallucination_spans"),  # unknown field (typo)
        ({"hallucinated_spans": [" "]}, "empty or blank"),
        ({"tool_calls": [{"name": "t", "args": {}, "output": 3, "status": "ok"}]},
         "tool_calls[0].output"),
        ({"tool_calls": [{"name": "t", "args": {}, "output": "x", "status": "failed"}]},
         "tool_calls[0].status"),
        ({"tool_calls": [{"name": "t", "args": {}, "status": "ok"}]}, "tool_calls[0].output"),
        ({"retry_hallucinated_spans": []}, "without retry_answer"),
        ({"retry_answer": "已退款失败", "retry_hallucinated_spans": ["成功"]}, "retry_answer"),
        ({"question": 3}, "question"),
        ({"id": ""}, "id"),
    ],
)
def test_format_violations_are_rejected(over, needle):
    obj = _good(**over)
    with pytest.raises(SuiteError) as err:
        parse_case(obj, "f.jsonl:7")
    assert "f.jsonl:7" in str(err.value) and needle in str(err.value)


def test_missing_required_fields_are_rejected():
    obj = _good()
    del obj["tool_calls"]
    with pytest.raises(SuiteError, match="tool_calls"):
        parse_case(obj)
    with pytest.raises(SuiteError, match="expected a JSON object"):
        parse_case([1, 2], "f:1")


def test_output_may_be_text_object_array_or_null():
    for output in ("text", {"a": 1}, [1, 2], None):
        tc = {"name": "t", "args": {}, "output": output, "status": "ok"}
        assert parse_case(_good(tool_calls=[tc])).tool_calls[0].output == output


def test_duplicate_ids_across_files_and_directories(tmp_path):
    _write(tmp_path, [json.dumps(_good())], "a.jsonl")
    _write(tmp_path, [json.dumps(_good(id="x2")), json.dumps(_good())], "b.jsonl")
    with pytest.raises(SuiteError, match="'x1' already used in .*a.jsonl"):
        load_suite([tmp_path])
    (tmp_path / "b.jsonl").unlink()
    _write(tmp_path, [json.dumps(_good(id="x0"))], "b.jsonl")
    assert [c.id for c in load_suite([tmp_path])] == ["x1", "x0"]  # sorted by file name


def test_empty_and_missing_suites(tmp_path):
    with pytest.raises(SuiteError, match="no cases"):
        load_suite([_write(tmp_path, [""])])
    with pytest.raises(SuiteError, match="no such suite file"):
        load_suite([tmp_path / "nope.jsonl"])
    (tmp_path / "sub").mkdir()
    with pytest.raises(SuiteError, match="no .jsonl files"):
        load_suite([tmp_path / "sub"])


def test_span_ranges_counts_every_occurrence():
    text = "退款 45 元，共 45 元；4545"
    assert span_ranges(text, ["45 元"]) == [(3, 7), (10, 14)]
    assert span_ranges(text, ["4545", "454"]) == [(15, 18), (15, 19)]
    assert span_ranges(text, ["45"]) == [(3, 5), (10, 12), (15, 17), (17, 19)]
    assert span_ranges("aaa", ["aa"]) == [(0, 2), (1, 3)]
    assert span_ranges("abc", ["b", "b"]) == [(1, 2)]


def test_make_case_helper_validates():
    with pytest.raises(SuiteError):
        make_case("nothing here", ["missing"])


def _assert_suite_valid(cases):
    assert len({c.id for c in cases}) == len(cases)
    for c in cases:
        for span in c.hallucinated_spans:
            assert span in c.answer, c.id
        assert set(c.kinds) <= set(KINDS), c.id


def test_bundled_suite_follows_the_format_and_the_brief():
    path = PACKAGE_EVAL / BUNDLED_SUITE
    cases = load_suite()  # the default loader reads the bundled file
    assert cases == load_suite([path])
    _assert_suite_valid(cases)
    langs = Counter(c.lang for c in cases)
    assert len(cases) == 200 and langs == {"zh": 100, "en": 80, "mixed": 20}
    hallucinated = [c for c in cases if c.hallucinated_spans]
    assert 0.28 <= len(hallucinated) / len(cases) <= 0.34
    assert {k for c in hallucinated for k in c.kinds} >= {
        "status_flip", "number", "identifier", "url", "unbacked_action", "entity"
    }
    retried = [c for c in hallucinated if c.retry_answer is not None]
    assert len(retried) >= 0.75 * len(hallucinated)
    assert any(c.retry_hallucinated_spans for c in retried)  # a few retries are still wrong
    for c in retried:
        for span in c.retry_hallucinated_spans or []:
            assert span in c.retry_answer, c.id


def test_heldout_suite_follows_the_format_and_is_named_by_its_name():
    cases = load_suite(["heldout"])
    assert cases == load_suite([bundled_suite_path("heldout")])
    _assert_suite_valid(cases)
    assert len(cases) == 950 and Counter(c.lang for c in cases) == {"zh": 417, "en": 421, "mixed": 112}
    assert sum(bool(c.hallucinated_spans) for c in cases) == 287
    assert not {c.id for c in cases} & {c.id for c in load_suite()}  # both suites load together
    assert len(load_suite(["bundled", "heldout"])) == 1150


def test_an_unknown_suite_name_is_a_clear_error():
    with pytest.raises(SuiteError, match="no such suite file"):
        load_suite(["helddout"])
    with pytest.raises(SuiteError, match="no bundled suite 'nope'; known: bundled, heldout"):
        bundled_suite_path("nope")


def test_cli_runs_the_heldout_suite_by_name(capsys):
    from factcheck.cli import main

    assert main(["eval", "--suite", "heldout", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cases"] == 950 and out["suite"] == ["heldout"]
