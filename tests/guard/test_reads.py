"""Which tools only read: declared reads, the lexicon's read verbs, and every other tool an action."""

from __future__ import annotations

import pytest

from factcheck.guard.reads import action_matcher, default_read_verbs
from factcheck.lexicon import load_lexicon


@pytest.mark.parametrize(
    ("name", "action"),
    [
        ("publish_article", True),
        ("wire_money", True),  # unknown to the lexicon: an action
        ("drop_table", True),
        ("order_lookup", False),  # declared a read
        ("get_order", False),  # the lexicon's read verbs, the default
        ("searchOrders", False),
        ("checkout", True),  # no read verb: check is not a prefix of checkout
    ],
)
def test_action_matcher_treats_every_undeclared_tool_as_an_action(name, action):
    is_action = action_matcher(["order_lookup"], default_read_verbs())
    assert is_action(name) is action


@pytest.mark.parametrize(("name", "action"), [("get_order", True), ("order_lookup", False), ("wire_money", True)])
def test_without_read_verbs_only_declared_names_are_reads(name, action):
    assert action_matcher(["order_lookup"])(name) is action


def test_the_default_read_verbs_are_the_shipped_lexicons():
    assert default_read_verbs().pattern == load_lexicon().read_only_tools.pattern
