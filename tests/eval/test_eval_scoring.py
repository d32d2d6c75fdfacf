"""Scoring exactly as case-format.md defines it, on hand-made reports."""

from __future__ import annotations

import pytest
from eval_helpers import ScriptedSystem, make_case

import factcheck.eval.runner as runner
import factcheck.policy
from factcheck.eval.runner import run_case, run_suite
from factcheck.eval.scoring import (
    answer_scores,
    end_to_end_scores,
    latency_scores,
    match_spans,
    percentile,
    span_scores,
    summarize,
)
from factcheck.report import Verdict

C, U, S = Verdict.CONTRADICTED, Verdict.UNSUPPORTED, Verdict.SUPPORTED


def test_answer_level_confusion_and_rates():
    cases = [
        make_case("Refund succeeded.", ["succeeded"], id="tp"),
        make_case("Refund failed.", [], id="fp"),
        make_case("Refund done.", ["done"], id="fn"),
        make_case("Refund failed, sorry.", [], id="tn"),
        make_case("Refund failed again.", [], id="tn2"),
    ]
    system = ScriptedSystem({
        "Refund succeeded.": [("succeeded", C)],
        "Refund failed.": [("failed", U)],
        "Refund done.": [("done", S)],  # supported: not flagged
        "Refund failed again.": [("failed", Verdict.UNVERIFIABLE)],
    })
    scores = answer_scores(run_suite(system, cases, warmup=False))
    assert (scores["tp"], scores["fp"], scores["fn"], scores["tn"]) == (1, 1, 1, 2)
    assert scores["precision"] == pytest.approx(1 / 2)
    assert scores["recall"] == pytest.approx(1 / 2)
    assert scores["f1"] == pytest.approx(1 / 2)
    assert scores["false_alarm_rate"] == pytest.approx(1 / 3)


def test_undefined_ratios_are_none_not_zero():
    cases = [make_case("Refund failed.", [], id="a")]
    scores = answer_scores(run_suite(ScriptedSystem({}), cases, warmup=False))
    assert scores["precision"] is None and scores["recall"] is None and scores["f1"] is None
    assert scores["false_alarm_rate"] == 0.0
    spans = span_scores(run_suite(ScriptedSystem({}), cases, warmup=False))
    assert spans["precision"] is None and spans["recall"] is None


def test_span_overlap_is_half_open_and_every_occurrence_counts():
    answer = "You got $45.00 back. Total $45.00 refunded today."
    case = make_case(answer, ["$45.00", "today"])
    # one claim covers the first $45.00 partly; one ends exactly where "today" starts
    system = ScriptedSystem({answer: [("got $4", C), ("refunded ", U)]})
    report = system.check(answer, [])
    m = match_spans(case, report)
    assert [(answer[s:e], caught) for s, e, caught in m.gold] == [
        ("$45.00", True), ("$45.00", False), ("today", False)]
    assert [(c.text, right) for c, right in m.flagged] == [("got $4", True), ("refunded ", False)]
    scores = span_scores(run_suite(system, [case], warmup=False))
    assert (scores["gold"], scores["caught"], scores["flagged"], scores["right"]) == (3, 1, 2, 1)
    assert scores["recall"] == pytest.approx(1 / 3)
    assert scores["precision"] == pytest.approx(1 / 2)
    assert scores["f1"] == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))


def test_supported_claims_never_count_for_spans():
    answer = "Refund of $45.00 succeeded."
    case = make_case(answer, ["succeeded"])
    scores = span_scores(run_suite(ScriptedSystem({answer: [("succeeded", S)]}), [case],
                                   warmup=False))
    assert scores["caught"] == 0 and scores["flagged"] == 0


def test_replay_uses_the_shared_policy_code():
    assert runner.apply_on_fail is factcheck.policy.apply_on_fail


def test_replay_retry_answer_faithful_and_accepted():
    case = make_case("Your refund succeeded.", ["succeeded"],
                     retry_answer="Your refund failed.", retry_hallucinated_spans=[])
    system = ScriptedSystem({"Your refund succeeded.": [("Your refund succeeded.", C)]})
    r = run_case(system, case)
    assert system.calls == [case.answer, case.retry_answer]
    assert (r.final_source, r.final_text, r.downgraded) == ("retry", "Your refund failed.", False)
    assert not r.final_hallucinated


def test_replay_retry_still_flagged_is_downgraded_by_drop():
    answer = "Refund failed. It will arrive in 3 days."
    retry = "Refund failed. It arrives in 5 days."
    case = make_case(answer, ["It will arrive in 3 days"], retry_answer=retry,
                     retry_hallucinated_spans=["It arrives in 5 days"])
    system = ScriptedSystem({
        answer: [("Refund failed.", S), ("It will arrive in 3 days.", U)],
        retry: [("Refund failed.", S), ("It arrives in 5 days.", U)],
    })
    r = run_case(system, case)
    expected = factcheck.policy.apply_on_fail(r.retry_report, "drop")
    assert r.final_text == expected == "Refund failed."
    assert r.final_source == "retry" and r.downgraded and not r.final_hallucinated


def test_replay_missed_retry_span_stays_hallucinated():
    answer = "Refund succeeded."
    retry = "Refund failed. Ticket T-9 opened."
    case = make_case(answer, ["succeeded"], retry_answer=retry,
                     retry_hallucinated_spans=["Ticket T-9 opened"])
    system = ScriptedSystem({answer: [("succeeded", C)]})  # retry passes unflagged
    r = run_case(system, case)
    assert r.final_text == retry and r.final_hallucinated


def test_replay_without_retry_downgrades_the_answer_itself():
    answer = "Refund failed. Your new order ID is 77120."
    case = make_case(answer, ["77120"])
    system = ScriptedSystem({answer: [("Refund failed.", S), ("Your new order ID is 77120.", U)]})
    r = run_case(system, case)
    assert r.retry_report is None and r.final_source == "answer"
    assert r.final_text == "Refund failed." and not r.final_hallucinated


def test_replay_drop_of_everything_gives_the_fallback():
    case = make_case("Refund succeeded.", ["succeeded"])
    r = run_case(ScriptedSystem({"Refund succeeded.": [("Refund succeeded.", C)]}), case)
    assert r.final_text == factcheck.policy.DEFAULT_FALLBACK["en"] and not r.final_hallucinated


def test_replay_gold_span_left_in_an_unflagged_claim_still_counts():
    answer = "Refund succeeded. Ticket opened."
    case = make_case(answer, ["succeeded"])
    # flags the wrong claim
    system = ScriptedSystem({answer: [("Refund succeeded.", S), ("Ticket opened.", U)]})
    r = run_case(system, case)
    assert r.final_text == "Refund succeeded." and r.final_hallucinated


def test_end_to_end_rates_and_retry_rate():
    faithful_flagged = make_case("Refund failed.", [], id="f1")
    faithful_ok = make_case("Refund failed, sorry.", [], id="f2")
    caught = make_case("Refund succeeded.", ["succeeded"], id="h1",
                       retry_answer="Refund failed!", retry_hallucinated_spans=[])
    missed = make_case("Refund done.", ["done"], id="h2")
    system = ScriptedSystem({"Refund failed.": [("failed", U)],
                             "Refund succeeded.": [("succeeded", C)]})
    results = run_suite(system, [faithful_flagged, faithful_ok, caught, missed], warmup=False)
    e2e = end_to_end_scores(results)
    assert e2e["before"] == pytest.approx(2 / 4)
    assert e2e["after"] == pytest.approx(1 / 4)  # only the missed one remains
    assert e2e["retry_rate"] == pytest.approx(1 / 2)
    assert e2e["retried"] == 1 and e2e["faithful_changed"] == 1


def test_percentile_interpolates():
    assert percentile([], 50) is None
    assert percentile([3.0], 95) == 3.0
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == pytest.approx(2.5)
    assert percentile(list(map(float, range(101))), 95) == pytest.approx(95.0)
    assert percentile([0.0, 10.0], 95) == pytest.approx(9.5)


def test_latency_times_only_the_answer_check():
    case = make_case("Refund succeeded.", ["succeeded"], retry_answer="Refund failed!")
    r = run_case(ScriptedSystem({"Refund succeeded.": [("succeeded", C)]}), case)
    assert r.elapsed_ms >= 0
    lat = latency_scores([r])
    assert lat["p50"] == lat["p95"] == lat["max"] == r.elapsed_ms


def test_summary_breakdowns_by_language_and_kind():
    cases = [
        make_case("Refund succeeded.", ["succeeded"], id="a", lang="en",
                  kinds=["status_flip", "number", "status_flip"]),
        make_case("退款成功。", ["退款成功"], id="b", lang="zh"),
        make_case("Refund failed.", [], id="c", lang="mixed"),
    ]
    system = ScriptedSystem({"Refund succeeded.": [("succeeded", C)]})
    s = summarize(run_suite(system, cases, warmup=False))
    assert s["cases"] == 3 and s["hallucinated"] == 2
    assert list(s["by_lang"]) == ["zh", "en", "mixed"]
    assert s["by_lang"]["zh"]["answers"]["recall"] == 0.0
    assert s["by_lang"]["en"]["answers"]["recall"] == 1.0
    assert list(s["by_kind"]) == ["status_flip", "number", "unlabelled", "faithful"]
    assert s["by_kind"]["status_flip"]["cases"] == 1  # a repeated kind counts once
    assert s["by_kind"]["faithful"]["answers"]["false_alarm_rate"] == 0.0
    assert s["by_kind"]["unlabelled"]["spans"]["recall"] == 0.0
