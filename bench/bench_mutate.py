"""Time `factcheck mutate` on generated stored histories (OpenAI chat format, retail-like tool outputs).

Prints the turns, the wall time of reading alone and of the whole command (read, mutate, write), turns per
second, and the ratio of the two times. Usage: python bench/bench_mutate.py [TURNS] (default 10000)
"""

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from factcheck.cli import main
from factcheck.mutate import read_inputs

PRODUCTS = ["Desk Lamp", "Office Chair", "Wall Clock", "Backpack", "Air Purifier", "Bluetooth Speaker", "Tablet"]


def conversation(i: int, turns: int, rng: random.Random) -> dict:
    """One stored conversation: per turn a user message, one tool call and the assistant's answer."""
    messages = [{"role": "system", "content": "You are a retail agent."}]
    for k in range(turns):
        order = f"#W{rng.randrange(10**6, 10**7)}"
        items = [{"name": rng.choice(PRODUCTS), "item_id": str(rng.randrange(10**9, 10**10)),
                  "price": round(rng.uniform(10, 900), 2)} for _ in range(rng.randint(1, 4))]
        status = rng.choice(["pending", "delivered", "cancelled"])
        total = round(sum(x["price"] for x in items), 2)
        output = {"order_id": order, "status": status, "items": items, "total": total,
                  "payment_history": [{"transaction_type": "payment", "amount": total}]}
        call_id = f"c{i}-{k}"
        lines = "\n".join(f"- {x['name']} (item {x['item_id']}): ${x['price']:.2f}" for x in items)
        messages += [
            {"role": "user", "content": f"What is in order {order}?"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {
                "name": "get_order_details", "arguments": json.dumps({"order_id": order})}}]},
            {"role": "tool", "tool_call_id": call_id, "content": json.dumps(output)},
            {"role": "assistant", "content": f"Order {order} is {status}. It has {len(items)} items:\n{lines}\n"
                                             f"The total was ${total:,.2f}, and it has been charged to your card."},
        ]
    return {"id": f"conv-{i}", "messages": messages}


def main_bench() -> None:
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rng = random.Random(23)
    per_conversation = 5
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "histories.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for i in range(turns // per_conversation):
                f.write(json.dumps(conversation(i, per_conversation, rng)) + "\n")
        t0 = time.perf_counter()
        cases, _ = read_inputs([str(path)])
        read_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        status = main(["mutate", str(path), "--out", str(Path(tmp) / "mutated.jsonl"), "--seed", "1", "-q"])
        total_s = time.perf_counter() - t0
    print(f"turns: {len(cases)}  exit: {status}")
    print(f"read only: {read_s:.2f} s   mutate command (read, mutate, write): {total_s:.2f} s   "
          f"{len(cases) / total_s:.0f} turns/s   command / read: {total_s / read_s:.1f}x")


if __name__ == "__main__":
    main_bench()
