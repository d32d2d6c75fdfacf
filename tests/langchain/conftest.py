"""Scripted chat models and counted tools shared by the LangChain integration tests."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.tools import tool

import factcheck.langchain  # noqa: F401 - registers Runnable.with_fact_check
from factcheck.langchain.extract import is_correction, message_text

REFUND_FAIL = "refund result: 失败，订单号 88231 未退款"
NARRATED = (
    "文章已生成，拟人化评分 82 分，已发布至平台，链接 https://domain/item/fake-id，"
    "已登记到台账，登记号 CT-20260922-001"
)
REAL_URL = "https://domain/item/a7f3c9"
REAL_REG = "CT-20260922-007"
FIXED = (
    f"文章已生成，拟人化评分 82 分，已发布至平台，链接 {REAL_URL}，已登记到台账，登记号 {REAL_REG}"
)


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that answers from a script and records what it was sent.

    Give `messages` (an iterator of AIMessages or str, consumed in order) or
    `responder` (a function of the conversation, for concurrent runs).
    """

    messages: Iterator[AIMessage | str] = iter(())
    responder: Callable[[list[BaseMessage]], AIMessage] | None = None
    seen: list[list[BaseMessage]] = []

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seen = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        if self.responder is not None:
            return ChatResult(generations=[ChatGeneration(message=self.responder(messages))])
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def _stream(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        # one chunk holding the whole scripted message, tool calls included
        message = self._generate(messages, stop=stop, run_manager=run_manager).generations[0]
        message = message.message
        chunk = AIMessageChunk(
            content=message.content,
            id=message.id,
            tool_call_chunks=[
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(message.tool_calls)
            ],
            chunk_position="last",
        )
        yield ChatGenerationChunk(message=chunk)

    async def _astream(self, messages: list[BaseMessage], stop: Any = None,
                       run_manager: Any = None, **kwargs: Any) -> AsyncIterator[Any]:
        for chunk in self._stream(messages, stop=stop):
            yield chunk

    @property
    def calls(self) -> int:
        return len(self.seen)


def scripted(*replies: AIMessage | str) -> ScriptedChatModel:
    """A model that gives these replies in order."""
    return ScriptedChatModel(messages=iter(list(replies)))


def call(name: str, args: dict[str, Any] | None = None, call_id: str | None = None) -> AIMessage:
    """An AI message that calls one tool."""
    return AIMessage(
        "", tool_calls=[{"name": name, "args": args or {}, "id": call_id or f"call_{name}"}]
    )


def corrections_in(messages: list[BaseMessage]) -> list[str]:
    """Texts of the factcheck corrections in a conversation."""
    return [message_text(m) for m in messages if is_correction(m)]


class CountedTools:
    """Real `@tool` functions for the seed incidents, counting each execution."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self._lock = threading.Lock()
        counted = self._counted

        @tool
        def refund_order(order_id: str) -> str:
            """Refund an order."""
            counted("refund_order")
            if int(order_id) % 2:
                return f"refund result: 失败，订单号 {order_id} 未退款"
            return f"refund result: 成功，订单号 {order_id} 已退款"

        @tool
        def order_lookup(order_id: str) -> dict:
            """Look up an order."""
            counted("order_lookup")
            return {"order_id": order_id, "status": "已发货", "carrier": "SF", "days": 3}

        @tool
        def generate_article(topic: str) -> dict:
            """Write an article on a topic."""
            counted("generate_article")
            return {"status": "ok", "article_id": "A-17", "title": topic}

        @tool
        def humanize_article(article_id: str) -> dict:
            """Rewrite an article to read naturally and score it."""
            counted("humanize_article")
            return {"article_id": article_id, "score": 82}

        @tool
        def publish_article(article_id: str) -> dict:
            """Publish an article to the platform."""
            counted("publish_article")
            return {"status": "published", "url": REAL_URL}

        @tool
        def register_ledger(article_id: str) -> dict:
            """Record a published article in the ledger."""
            counted("register_ledger")
            return {"status": "ok", "registration_no": REAL_REG}

        @tool
        def broken_tool(order_id: str) -> str:
            """Always fails."""
            counted("broken_tool")
            raise RuntimeError("backend down")

        self.refund_order = refund_order
        self.order_lookup = order_lookup
        self.generate_article = generate_article
        self.humanize_article = humanize_article
        self.publish_article = publish_article
        self.register_ledger = register_ledger
        self.broken_tool = broken_tool
        self.pipeline = [generate_article, humanize_article, publish_article, register_ledger]

    def _counted(self, name: str) -> None:
        with self._lock:
            self.count[name] += 1


@pytest.fixture
def tools() -> CountedTools:
    return CountedTools()


def pipeline_script(*final_answers: str, fix: bool = True) -> list[AIMessage | str]:
    """Seed 000: the model runs generate and humanize, then narrates publish and register.

    With `fix`, the reply after the first correction calls publish and register and
    then reports their real results; otherwise every reply is one of `final_answers`.
    """
    script: list[AIMessage | str] = [
        call("generate_article", {"topic": "AI agents"}, "c1"),
        call("humanize_article", {"article_id": "A-17"}, "c2"),
        final_answers[0] if final_answers else NARRATED,
    ]
    if fix:
        script += [
            call("publish_article", {"article_id": "A-17"}, "c3"),
            call("register_ledger", {"article_id": "A-17"}, "c4"),
            FIXED,
        ]
    else:
        script += list(final_answers[1:])
    return script


def refund_responder(messages: list[BaseMessage]) -> AIMessage:
    """Deterministic refund agent for concurrent runs: claims success until corrected."""
    question = next(m for m in messages if isinstance(m, HumanMessage) and not is_correction(m))
    order_id = message_text(question).split()[-1]
    last = messages[-1]
    if isinstance(last, HumanMessage) and not is_correction(last):
        return call("refund_order", {"order_id": order_id}, f"call_{order_id}")
    if is_correction(last):
        return AIMessage(f"抱歉，订单号 {order_id} 的退款失败了，目前未退款。")
    assert isinstance(last, ToolMessage)
    return AIMessage(f"已为您成功退款，订单号 {order_id}。")


class Recorder(BaseCallbackHandler):
    """Records chain starts, tool runs and custom events seen through callbacks."""

    def __init__(self) -> None:
        self.chains: list[dict[str, Any]] = []
        self.tools: list[str] = []
        self.events: list[tuple[str, Any]] = []

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID,
                       parent_run_id: UUID | None = None, tags: list[str] | None = None,
                       metadata: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self.chains.append({"name": kwargs.get("name"), "run_id": run_id,
                            "parent": parent_run_id, "tags": tags or [],
                            "metadata": metadata or {}})

    def on_tool_start(self, serialized: Any, input_str: str, **kwargs: Any) -> None:
        self.tools.append(kwargs.get("name") or serialized.get("name"))

    def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        self.events.append((name, data))

    def named(self, name: str) -> list[dict[str, Any]]:
        return [c for c in self.chains if c["name"] == name]


class TokenChatModel(ScriptedChatModel):
    """A scripted model that streams its text word by word (tool calls in one chunk).

    With `blocks`, each text chunk is a list of content blocks instead of a str.
    """

    blocks: bool = False

    def _stream(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        message = self._generate(messages, stop=stop, run_manager=run_manager).generations[0]
        message = message.message
        if message.tool_calls:
            yield ChatGenerationChunk(message=AIMessageChunk(
                content="", id=message.id,
                tool_call_chunks=[
                    {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                    for i, c in enumerate(message.tool_calls)
                ],
            ))
            return
        for word in re.findall(r"\S+\s*", str(message.content)):
            content: Any = [{"type": "text", "text": word, "index": 0}] if self.blocks else word
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=content, id=message.id))
            if run_manager is not None:
                run_manager.on_llm_new_token(word, chunk=chunk)
            yield chunk


def token_model(*replies: AIMessage | str, blocks: bool = False) -> TokenChatModel:
    """A word-by-word streaming model that gives these replies in order."""
    return TokenChatModel(messages=iter(list(replies)), blocks=blocks)


REPORT_KEYS = ("fact_check", "factcheck_attempts", "factcheck_corrections")
"""Keys holding reports: the run report and the middleware's private attempt reports."""


def payload_text(obj: Any, report_keys: tuple[str, ...] = REPORT_KEYS) -> str:
    """Every string a consumer received in chunks or events, the reports left out.

    Reports (the run report, the `fact_check` custom event, the middleware's private
    attempt reports and corrections) are for the developer and quote flagged claims by
    design; everything else is walked, messages and dataclasses (`Command`) included.
    """
    out: list[str] = []

    def walk(value: Any) -> None:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            walk({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
        elif isinstance(value, BaseMessage) or hasattr(value, "model_dump"):
            walk(value.model_dump())
        elif hasattr(value, "ops"):  # RunLogPatch / RunLog
            walk(value.ops)
            walk(getattr(value, "state", None))
        elif isinstance(value, dict):
            if value.get("event") == "on_custom_event" and value.get("name") in report_keys:
                return
            for key, item in value.items():
                if key not in report_keys:
                    walk(key)
                    walk(item)
        elif isinstance(value, (list, tuple, set)):
            for item in value:
                walk(item)
        elif value is not None:
            out.append(str(value))

    walk(obj)
    return "\n".join(out)
