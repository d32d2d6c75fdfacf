"""Stored conversations for the audit tests (seeds 001 and 000, a clean long one) in every format."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from langchain_core.load import dumpd
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage, messages_to_dict

_spec = importlib.util.spec_from_file_location("langchain_scripted", Path(__file__).parent.parent / "langchain"
                                               / "conftest.py")
scripted_models = sys.modules.setdefault("langchain_scripted", importlib.util.module_from_spec(_spec))
if not hasattr(scripted_models, "ScriptedChatModel"):
    _spec.loader.exec_module(scripted_models)
"""tests/langchain/conftest.py: the scripted chat models and counted tools shared with the LangChain tests."""

IMG1 = "https://cdn.imgs.test/gen/img_20260321_a1b2c3.png"
IMG2 = "https://cdn.imgs.test/gen/img_20260321_d4e5f6.png"
FAKE_IMG = "https://example.com/images/generated_6a7b8c9d-0e1f-2a3b-4c5d.png"
FAKE_LINK = "https://domain/item/fake-id"
FAKE_REG = "CT-20260922-001"
IMAGE_SYSTEM = "你是一个图像生成助手。生成图片必须调用 image_generate 工具。"


def call_msg(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI assistant message that calls one tool."""
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}]}


def tool_msg(call_id: str, output: Any) -> dict[str, Any]:
    """An OpenAI tool message answering `call_id`."""
    content = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def image_chain(call_id: str, prompt: str, url: str) -> list[dict[str, Any]]:
    """The three-part chain of one generated image, as the seed's fix stores it."""
    return [call_msg(call_id, "image_generate", {"prompt": prompt}),
            tool_msg(call_id, {"success": True, "images": [url]}),
            {"role": "assistant", "content": f"图片已生成！![图片]({url})"}]


def seed_001() -> list[dict[str, Any]]:
    """Seed 001: two images with their tool chain, then "再生成两张" answered with a made-up URL and no call."""
    return [
        {"role": "system", "content": IMAGE_SYSTEM},
        {"role": "user", "content": "生成一张战斗机的图片"},
        *image_chain("call_img_771_1", "战斗机", IMG1),
        {"role": "user", "content": "再来一张，换成夜景"},
        *image_chain("call_img_771_2", "夜景战斗机", IMG2),
        {"role": "user", "content": "再生成两张"},
        {"role": "assistant", "content": f"![生成的图片]({FAKE_IMG})"},
    ]


SEED_001_FABRICATED = 10
"""Index of the fabricated turn in `seed_001()`."""

NARRATED = scripted_models.NARRATED


def seed_000() -> list[dict[str, Any]]:
    """Seed 000: generate and humanize ran; publish and register are narrated with a link and 登记号."""
    return [
        {"role": "system", "content": "你是内容生产 Agent：选题 → 生成正文 → humanize 改写打分 → 发布到平台 → "
                                      "登记台账 → 汇报。"},
        {"role": "user", "content": "执行今天的内容生产任务"},
        call_msg("c1", "generate_article", {"topic": "AI agents"}),
        tool_msg("c1", {"status": "ok", "article_id": "A-17", "title": "AI agents"}),
        call_msg("c2", "humanize_article", {"article_id": "A-17"}),
        tool_msg("c2", {"article_id": "A-17", "score": 82}),
        {"role": "assistant", "content": NARRATED},
    ]


def _clean_turn(k: int) -> list[dict[str, Any]]:
    """One grounded user/assistant exchange of a long clean history (five kinds, in rotation)."""
    kind = k % 5
    if kind == 0:
        url = f"https://cdn.imgs.test/gen/img_{k:04d}.png"
        return [{"role": "user", "content": f"生成第 {k} 张图片"}, *image_chain(f"img{k}", f"图片 {k}", url)]
    if kind == 1:
        order = f"{88200 + k}"
        return [
            {"role": "user", "content": f"查一下订单 {order} 的物流"},
            call_msg(f"ord{k}", "order_lookup", {"order_id": order}),
            tool_msg(f"ord{k}", {"order_id": order, "status": "已发货", "carrier": "SF", "days": 3}),
            {"role": "assistant", "content": f"订单 {order} 已发货，承运商 SF，预计 3 天送达。"},
        ]
    if kind == 2:
        url = f"https://cdn.imgs.test/gen/img_{k - 2:04d}.png"
        return [{"role": "user", "content": "刚才那张图片的链接再发我一下"},
                {"role": "assistant", "content": f"刚才那张图片的链接：{url}"}]
    if kind == 3:
        return [
            {"role": "user", "content": f"What is the balance of account AC-{k:03d}?"},
            call_msg(f"bal{k}", "get_balance", {"account": f"AC-{k:03d}"}),
            tool_msg(f"bal{k}", {"account": f"AC-{k:03d}", "balance": 1200 + k, "currency": "USD"}),
            {"role": "assistant", "content": f"Account AC-{k:03d} has a balance of ${1200 + k}."},
        ]
    return [{"role": "user", "content": "谢谢"}, {"role": "assistant", "content": "不客气，还有什么需要帮忙的吗？"}]


def clean_history(turns: int = 50) -> list[dict[str, Any]]:
    """A long grounded history: `turns` exchanges, every fact backed, every action called in its turn."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": IMAGE_SYSTEM}]
    for k in range(turns):
        messages += _clean_turn(k)
    return messages


def to_langchain(messages: list[dict[str, Any]]) -> list[BaseMessage]:
    """OpenAI chat messages as LangChain messages (tool calls and tool messages kept)."""
    out: list[BaseMessage] = []
    for m in messages:
        if m["role"] == "system":
            out.append(SystemMessage(m["content"]))
        elif m["role"] == "user":
            out.append(HumanMessage(m["content"]))
        elif m["role"] == "tool":
            out.append(ToolMessage(m["content"], tool_call_id=m["tool_call_id"]))
        else:
            calls = [{"name": c["function"]["name"], "args": json.loads(c["function"]["arguments"]), "id": c["id"]}
                     for c in m.get("tool_calls", [])]
            out.append(AIMessage(m["content"] or "", tool_calls=calls))
    return out


def as_format(messages: list[dict[str, Any]], fmt: str, conv_id: str) -> dict[str, Any] | list[Any]:
    """One JSON Lines record of the conversation in a stored format.

    Args:
        messages: OpenAI chat messages.
        fmt: `openai`, `openai-list` (a bare list), `messages_to_dict`, `dumpd`, or `langgraph-state`
            (a thread state export: `values.messages` as LangChain messages dumped flat).
        conv_id: The conversation's id.

    Returns:
        The record.
    """
    if fmt == "openai":
        return {"id": conv_id, "messages": messages}
    if fmt == "openai-list":
        return messages
    lc = to_langchain(messages)
    if fmt == "messages_to_dict":
        return {"id": conv_id, "messages": messages_to_dict(lc)}
    if fmt == "dumpd":
        return {"id": conv_id, "messages": [dumpd(m) for m in lc]}
    if fmt == "langgraph-state":
        return {"values": {"messages": [m.model_dump() for m in lc]}, "metadata": {"thread_id": conv_id}}
    raise ValueError(fmt)


FORMATS = ("openai", "openai-list", "messages_to_dict", "dumpd", "langgraph-state")


def write_jsonl(path: Path, records: list[Any]) -> Path:
    """Write records as JSON Lines (UTF-8, not ASCII-escaped)."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path
