"""Helpers for the eval tests: hand-made cases and a system that flags what it is told to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from factcheck.eval.suite import Case, parse_case
from factcheck.report import Claim, Evidence, Fact, FactKind, Report, Verdict

DATA = Path(__file__).parent / "data"
MINI = DATA / "mini.jsonl"


def make_case(answer: str, spans: Sequence[str] = (), **fields: Any) -> Case:
    """A valid case with defaults for everything but the answer and its spans."""
    obj = {
        "id": fields.pop("id", "c1"),
        "lang": fields.pop("lang", "en"),
        "domain": fields.pop("domain", "refund"),
        "question": fields.pop("question", "Where is my refund?"),
        "tool_calls": fields.pop(
            "tool_calls",
            [{"name": "get_refund", "args": {"id": "1"}, "output": {"status": "failed"},
              "status": "ok"}],
        ),
        "answer": answer,
        "hallucinated_spans": list(spans),
        **fields,
    }
    return parse_case(obj)


class ScriptedSystem:
    """Flags exactly the claims it is given: answer -> [(claim text, verdict), ...]."""

    name = "scripted"

    def __init__(self, script: Mapping[str, Sequence[tuple[str, Verdict]]]) -> None:
        self.script = script
        self.calls: list[str] = []

    def check(self, answer: str, tool_calls: Any, context: Sequence[str] = ()) -> Report:
        self.calls.append(answer)
        claims = []
        for text, verdict in self.script.get(answer, []):
            start = answer.index(text)
            fact = Fact(kind=FactKind.STATUS, text=text, start=start, end=start + len(text),
                        verdict=verdict, code="polarity_mismatch",
                        reason=f"scripted reason for {text}",
                        evidence=[Evidence(index=0, tool_name="get_refund", path="status",
                                           text="failed")])
            claims.append(Claim(text=text, start=start, end=start + len(text), verdict=verdict,
                                facts=[fact], reason=f"scripted reason for {text}"))
        claims.sort(key=lambda c: c.start)
        return Report(answer=answer, lang="en", claims=claims, tool_call_count=len(tool_calls))
