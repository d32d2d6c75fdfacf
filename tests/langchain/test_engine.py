"""The one bound on retries, shared by the wrapper's steps and the middleware's turns."""

from __future__ import annotations

import pytest

from factcheck import check
from factcheck.langchain.engine import retry_wanted

TOOLS = [{"name": "refund_order", "args": {"order_id": "88231"},
          "output": "refund result: failed, order 88231 was not refunded", "status": "ok"}]
GOOD = check("The refund of order 88231 failed.", tool_calls=TOOLS)
BAD = check("Your refund of $45 for order 88231 has been processed.", tool_calls=TOOLS)


@pytest.mark.parametrize(
    ("report", "answers", "max_retries", "wanted"),
    [
        (BAD, 1, 0, False),  # no retries allowed
        (BAD, 1, 1, True),
        (BAD, 2, 1, False),  # the one retry was used
        (BAD, 2, 2, True),
        (BAD, 3, 2, False),
        (GOOD, 1, 2, False),  # a passing answer is never retried
    ],
)
def test_retry_wanted_bounds_the_retries(report, answers, max_retries, wanted):
    assert GOOD.ok and not BAD.ok
    assert retry_wanted(report, answers, max_retries) is wanted
