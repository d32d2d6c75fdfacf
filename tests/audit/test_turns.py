"""Per-turn verdicts: the seed incidents, a clean long history, and what may back what."""

from __future__ import annotations

import json

import histories as h
import pytest

from factcheck.audit.messages import read_conversation
from factcheck.audit.turns import audit_conversation
from factcheck.checker import FactChecker
from factcheck.report import FactKind


@pytest.fixture(scope="module")
def checker() -> FactChecker:
    return FactChecker()


def audit(messages: list, checker: FactChecker, fmt: str = "openai") -> list:
    record = json.loads(json.dumps(h.as_format(messages, fmt, "c"), ensure_ascii=False))
    return audit_conversation(read_conversation(record, 1), checker)


def flagged_facts(result) -> list:
    return [f for c in result.report.claims for f in c.facts if f.flagged]


@pytest.mark.parametrize("fmt", h.FORMATS)
def test_seed_001_flags_exactly_the_fabricated_turn(fmt, checker):
    results = audit(h.seed_001(), checker, fmt)
    assert [r.turn for r in results] == [4, 8, h.SEED_001_FABRICATED]
    assert [r.turn for r in results if not r.ok] == [h.SEED_001_FABRICATED]
    fabricated = results[-1]
    assert [(f.kind, f.text) for f in flagged_facts(fabricated)] == [(FactKind.URL, h.FAKE_IMG)]
    assert fabricated.chained  # the history held a real chain; the model still wrote a URL


@pytest.mark.parametrize("fmt", h.FORMATS)
def test_seed_000_flags_the_action_and_both_ids(fmt, checker):
    (result,) = audit(h.seed_000(), checker, fmt)
    assert not result.ok
    flags = {(f.kind, f.text) for f in flagged_facts(result)}
    assert (FactKind.URL, h.FAKE_LINK) in flags
    assert (FactKind.IDENTIFIER, h.FAKE_REG) in flags
    assert (FactKind.ACTION, "已发布") in flags
    backed = {f.text for c in result.report.claims for f in c.facts if f.verdict.value == "supported"}
    assert {"82", "已生成"} <= backed  # generate and humanize really ran


@pytest.mark.parametrize("fmt", h.FORMATS)
def test_clean_history_of_50_turns_flags_nothing(fmt, checker):
    results = audit(h.clean_history(50), checker, fmt)
    assert len(results) == 50
    assert [r.turn for r in results if not r.ok] == []
    repeated = [r for r in results if "刚才那张图片的链接" in r.message.text]
    assert repeated and all(f.verdict.value == "supported" for r in repeated for c in r.report.claims
                            for f in c.facts)  # links backed by an earlier turn's result


def test_a_claimed_action_needs_a_call_of_its_own_turn(checker):
    messages = [
        {"role": "user", "content": "生成一张战斗机的图片"},
        *h.image_chain("c1", "战斗机", h.IMG1),
        {"role": "user", "content": "再生成一张"},
        {"role": "assistant", "content": f"图片已生成！![图片]({h.IMG1})"},  # no call: the old image again
    ]
    first, second = audit(messages, checker)
    assert first.ok
    facts = {f.kind: f for c in second.report.claims for f in c.facts}
    assert facts[FactKind.ACTION].flagged and facts[FactKind.ACTION].code == "no_tool_call"
    assert "in this turn" in facts[FactKind.ACTION].reason
    assert facts[FactKind.URL].verdict.value == "supported"  # the link itself is the earlier call's


def test_a_failed_call_of_the_turn_does_not_back_the_action(checker):
    messages = [
        {"role": "user", "content": "生成一张战斗机的图片"},
        *h.image_chain("c1", "战斗机", h.IMG1),
        {"role": "user", "content": "再生成一张"},
        h.call_msg("c2", "image_generate", {"prompt": "战斗机"}),
        {"role": "tool", "tool_call_id": "c2", "content": "error: quota exceeded"},
        {"role": "assistant", "content": f"图片已生成！![图片]({h.IMG1})"},
    ]
    lc = json.loads(json.dumps(h.as_format(messages, "messages_to_dict", "c"), ensure_ascii=False))
    lc["messages"][-2]["data"]["status"] = "error"  # ToolMessage(status="error") as LangChain stores it
    results = audit_conversation(read_conversation(lc, 1), checker)
    action = next(f for c in results[-1].report.claims for f in c.facts if f.kind == FactKind.ACTION)
    assert action.flagged


def test_context_is_the_system_prompt_and_earlier_user_turns(checker):
    messages = [
        {"role": "system", "content": "客服工号 KF-2291。"},
        {"role": "user", "content": "我的订单号是 W-5521"},
        {"role": "assistant", "content": "好的，订单号 W-5521，我是客服 KF-2291。"},
        {"role": "assistant", "content": "订单号 W-5521 的工单号是 TK-0091。"},
    ]
    first, second = audit(messages, checker)
    assert first.ok  # both ids come from the context
    unbacked = [f.text for c in second.report.claims for f in c.facts if f.verdict.flagged]
    assert unbacked == ["TK-0091"]  # an earlier assistant turn backs nothing (at any confidence)
