"""A scripted chat model and a `create_agent` factory replaying a suite's answers (for --agent).

Outside the tests: `PYTHONPATH=tests/eval factcheck eval --agent scripted_agent:make_agent`
scripts the model with the suite named by `FACTCHECK_SCRIPTED_SUITE` (default: the bundled one).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult

from factcheck.eval.suite import Case, load_suite

SCRIPTS: dict[tuple[str, str], Case] = {}
"""(context text, question) -> case; fill with `use_cases` before running the factory."""


def use_cases(cases: Sequence[Case]) -> None:
    """Script the model with these cases (context plus question must tell them apart)."""
    SCRIPTS.clear()
    SCRIPTS.update({("\n\n".join(c.context), c.question): c for c in cases})
    assert len(SCRIPTS) == len(cases), "scripted cases need distinct context + question"


class ScriptedChatModel(GenericFakeChatModel):
    """Calls the case's recorded tools one by one, then answers with the recorded answer;
    after a correction message it answers with the case's `retry_answer`."""

    messages: Any = iter(())

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        if not SCRIPTS:
            suite = os.environ.get("FACTCHECK_SCRIPTED_SUITE")
            use_cases(load_suite([suite] if suite else None))
        first = next(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        system = "".join(str(m.content) for m in messages[:first] if isinstance(m, SystemMessage))
        case = SCRIPTS[(system, str(messages[first].content))]
        later = messages[first + 1:]
        done = sum(isinstance(m, ToolMessage) for m in later)
        corrected = any(not isinstance(m, (AIMessage, ToolMessage)) for m in later)
        if done < len(case.tool_calls):
            tc = case.tool_calls[done]
            msg = AIMessage("", tool_calls=[{"name": tc.name, "args": dict(tc.args),
                                             "id": f"call_{done}", "type": "tool_call"}])
        elif corrected and case.retry_answer is not None:
            msg = AIMessage(case.retry_answer)
        else:
            msg = AIMessage(case.answer)
        return ChatResult(generations=[ChatGeneration(message=msg)])


def make_agent(tools: list[Any]) -> Any:
    """The `--agent` factory: a real `create_agent` graph around the scripted model."""
    return create_agent(ScriptedChatModel(), tools)
