"""The LangSmith evaluator on 200 traced agent runs: its time against a plain `check()` of the same answers.

Each run is a real `create_agent` loop (scripted model, real tool) traced into a local run tree, half of
them stored as LangSmith returns them (JSON inputs and outputs, child runs). Prints the evaluator's time
for the 200 runs, the plain checks' time, their ratio (what reading the runs costs), and the scores.
Usage: PYTHONPATH=. python bench/bench_langsmith.py [RUNS]
"""

import os
import sys
import time

os.environ["LANGSMITH_TRACING"] = "false"

from langchain.agents import create_agent  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.load import dumpd  # noqa: E402
from langchain_core.messages import AIMessage  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langchain_core.tracers.run_collector import RunCollectorCallbackHandler  # noqa: E402
from langsmith.schemas import Run  # noqa: E402

from factcheck.langchain.extract import context_from_input, find_answer, tool_calls_from_output  # noqa: E402
from factcheck.langsmith import FactCheckEvaluator  # noqa: E402

ANSWERS = ["Your refund of $45 for order {n} has been processed.",
           "The refund of order {n} failed; it was not refunded."]


@tool
def refund_order(order_id: str) -> str:
    """Refund an order."""
    return f"refund failed: order {order_id} was not refunded"


class Scripted(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def traced(k: int):
    n = 88000 + k
    calls = [{"name": "refund_order", "args": {"order_id": str(n)}, "id": f"c{k}"}]
    model = Scripted(messages=iter([AIMessage("", tool_calls=calls), AIMessage(ANSWERS[k % 2].format(n=n))]))
    collector = RunCollectorCallbackHandler()
    create_agent(model, [refund_order]).invoke({"messages": [("user", f"Refund order {n}.")]},
                                              {"callbacks": [collector]})
    return collector.traced_runs[0]


def stored(run) -> Run:
    return Run(id=run.id, name=run.name, run_type=run.run_type, start_time=run.start_time, trace_id=run.trace_id,
               dotted_order=run.dotted_order, inputs=dumpd(run.inputs), outputs=dumpd(run.outputs),
               error=run.error, child_runs=[stored(c) for c in run.child_runs])


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = [traced(k) if k % 4 < 2 else stored(traced(k)) for k in range(count)]
    evaluate = FactCheckEvaluator()
    checker = evaluate.options.get_checker()
    plain = [(find_answer(r.outputs).text, [c.as_tool_call() for c in tool_calls_from_output(r.outputs)],
              context_from_input(r.inputs)) for r in runs if not isinstance(r, Run)]  # the local run trees
    evaluate(runs[0])  # warm up: the checker's pipelines
    started = time.perf_counter()
    scores = [evaluate(run)["score"] for run in runs]
    took = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(count // len(plain)):
        for answer, calls, context in plain:
            checker.check(answer, calls, context)
    base = (time.perf_counter() - started) / (count // len(plain) * len(plain)) * count
    print(f"{count} runs ({count // 2} stored as JSON): evaluator {took:.2f} s, plain check() of the same answers "
          f"{base:.2f} s, ratio {took / base:.2f}x; scores 1: {scores.count(1)}, 0: {scores.count(0)}")


if __name__ == "__main__":
    main()
