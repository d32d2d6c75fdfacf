"""`min_confidence` on `.with_fact_check()` and `FactCheckMiddleware`: uncertain flags are reported, never acted on."""

from __future__ import annotations

import pytest
from conftest import call, scripted
from langchain.agents import create_agent

from factcheck import CheckerConfig, FactChecker
from factcheck.langchain import FactCheckMiddleware, get_run_report

QUESTION = {"messages": [("user", "Where is my parcel?")]}
WRONG = "Your parcel was delivered to building 5."  # the tool says building 3: a flag of middling confidence
RIGHT = "Your parcel was delivered to building 3."


def _agent(tools, *middleware):
    model = scripted(call("get_delivery", {"parcel": "P1"}), WRONG, RIGHT)
    return create_agent(model, [tools.get_delivery], middleware=list(middleware))


@pytest.fixture
def tools():
    from langchain_core.tools import tool

    class Tools:
        @staticmethod
        @tool
        def get_delivery(parcel: str) -> dict:
            """Where a parcel was delivered."""
            return {"parcel": parcel, "status": "delivered", "address": "building 3"}

    return Tools


def _confidence() -> float:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(
        WRONG, [{"name": "get_delivery", "args": {"parcel": "P1"},
                 "output": {"parcel": "P1", "status": "delivered", "address": "building 3"}}])
    return max(c.confidence or 0 for c in report.flagged)


@pytest.mark.parametrize(("threshold", "retried"), [(0.0, True), (0.999, False)])
def test_the_wrapper_acts_only_on_flags_at_or_above_the_threshold(tools, threshold, retried):
    assert 0 < _confidence() < 0.999  # the flag sits between the two thresholds
    out = _agent(tools).with_fact_check(min_confidence=threshold).invoke(QUESTION)
    report = get_run_report(out)
    assert (report.outcome == "retried") is retried
    assert out["messages"][-1].content == (RIGHT if retried else WRONG)
    if not retried:  # the flag is kept in the report, as uncertain
        assert report.attempts[0].ok and report.attempts[0].uncertain


@pytest.mark.parametrize(("threshold", "retried"), [(0.0, True), (0.999, False)])
def test_the_middleware_acts_only_on_flags_at_or_above_the_threshold(tools, threshold, retried):
    out = _agent(tools, FactCheckMiddleware(min_confidence=threshold)).invoke(QUESTION)
    report = get_run_report(out)
    assert (report.outcome == "retried") is retried
    assert out["messages"][-1].content == (RIGHT if retried else WRONG)


def test_the_option_overrides_the_config_and_keeps_its_other_settings():
    from factcheck.langchain.engine import FactCheckOptions

    options = FactCheckOptions(config=CheckerConfig(min_confidence=0.2, max_output_chars=1000), min_confidence=0.9)
    checker = options.get_checker()
    assert checker.config.min_confidence == 0.9 and checker.config.max_output_chars == 1000


@pytest.mark.parametrize("bad", [{"min_confidence": 1.5}, {"min_confidence": -0.1},
                                 {"min_confidence": 0.5, "checker": FactChecker()}])
def test_a_bad_threshold_is_a_clear_error(bad):
    from factcheck.langchain.engine import FactCheckOptions

    with pytest.raises(ValueError, match="min_confidence"):
        FactCheckOptions(**bad)
