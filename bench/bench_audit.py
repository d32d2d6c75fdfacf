"""Benchmark: `factcheck audit` throughput (assistant turns per second), local process vs Ray, and the cost
per million turns it implies.

Generates conversations of 10 assistant text turns each (image generations with their tool chain,
order look-ups, balances, a link repeated from an earlier turn, small talk; one conversation in 20 ends
with a fabricated link), writes them as JSON Lines, then audits the file with the local engine (one
process, one checker) and with `--engine ray` (Ray Data, one checker per actor, one actor per CPU), in
the same run, and checks that both give the same verdicts byte for byte after sorting. Ray's start-up
(`ray.init`) is timed apart; the Ray figure includes reading the file, starting the actors and
collecting the results. Cost: core-seconds per million turns times a price per core-hour (an
assumption you pass in; default $0.04, roughly an on-demand cloud vCPU-hour).

Run: python bench/bench_audit.py [--turns 20000] [--usd-per-core-hour 0.04]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

from factcheck.audit.lines import audit_line, read_lines
from factcheck.checker import FactChecker

TURNS_PER_CONVERSATION = 10


def _call(call_id: str, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def _result(call_id: str, output: dict) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": json.dumps(output, ensure_ascii=False)}


def _turn(c: int, k: int) -> list[dict]:
    """Exchange `k` of conversation `c` (five kinds in rotation)."""
    kind, tag = k % 5, f"{c}_{k}"
    if kind == 0:
        url = f"https://cdn.imgs.test/gen/img_{tag}.png"
        return [{"role": "user", "content": f"生成第 {k} 张图片"},
                _call(f"img{tag}", "image_generate", {"prompt": tag}),
                _result(f"img{tag}", {"success": True, "images": [url]}),
                {"role": "assistant", "content": f"图片已生成！![图片]({url})"}]
    if kind == 1:
        order = str(88000 + (c * 7 + k) % 1000)
        return [{"role": "user", "content": f"查一下订单 {order} 的物流"},
                _call(f"ord{tag}", "order_lookup", {"order_id": order}),
                _result(f"ord{tag}", {"order_id": order, "status": "已发货", "carrier": "SF", "days": 3}),
                {"role": "assistant", "content": f"订单 {order} 已发货，承运商 SF，预计 3 天送达。"}]
    if kind == 2:
        url = f"https://cdn.imgs.test/gen/img_{c}_{k - 2}.png"
        return [{"role": "user", "content": "刚才那张图片的链接再发我一下"},
                {"role": "assistant", "content": f"刚才那张图片的链接：{url}"}]
    if kind == 3:
        account, balance = f"AC-{c % 1000:03d}", 1200 + k
        return [{"role": "user", "content": f"What is the balance of account {account}?"},
                _call(f"bal{tag}", "get_balance", {"account": account}),
                _result(f"bal{tag}", {"account": account, "balance": balance, "currency": "USD"}),
                {"role": "assistant", "content": f"Account {account} has a balance of ${balance}."}]
    return [{"role": "user", "content": "谢谢"}, {"role": "assistant", "content": "不客气，还有什么需要帮忙的吗？"}]


def conversation(c: int) -> dict:
    """One generated conversation of `TURNS_PER_CONVERSATION` assistant text turns."""
    messages = [{"role": "system", "content": "你是一个助手。生成图片必须调用 image_generate 工具。"}]
    for k in range(TURNS_PER_CONVERSATION - 1):
        messages += _turn(c, k)
    if c % 20 == 0:  # seed 001: asked again, answered with a made-up link and no call
        messages += [{"role": "user", "content": "再生成两张"},
                     {"role": "assistant", "content": f"![生成的图片](https://example.com/images/generated_{c}.png)"}]
    else:
        messages += _turn(c, TURNS_PER_CONVERSATION - 1)
    return {"id": f"conv-{c}", "messages": messages}


def audit_local(path: str) -> tuple[list[str], float, float]:
    """Records, checker build time and audit time of the local engine."""
    started = time.perf_counter()
    checker = FactChecker()
    built = time.perf_counter()
    records = []
    for n, _raw, text, notes in read_lines(path):
        records += audit_line(text, path, n, checker, notes=notes).records
    return records, built - started, time.perf_counter() - built


def audit_ray(path: str) -> tuple[list[str], float, float, int]:
    """Records, Ray start-up time, audit time and CPUs of the Ray engine."""
    import ray

    from factcheck.audit.ray_engine import _init, audit_lines_ray

    started = time.perf_counter()
    _init(None)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    up = time.perf_counter()
    records = [r for res in audit_lines_ray([path], None, "auto", False, None) for r in res.records]
    done = time.perf_counter()
    ray.shutdown()
    return records, up - started, done - up, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", type=int, default=20_000, help="assistant text turns to generate")
    parser.add_argument("--usd-per-core-hour", type=float, default=0.04, help="price assumed per core-hour")
    args = parser.parse_args()
    conversations = max(1, args.turns // TURNS_PER_CONVERSATION)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "histories.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for c in range(conversations):
                f.write(json.dumps(conversation(c), ensure_ascii=False) + "\n")
        size = os.path.getsize(path)
        local, build_s, local_s = audit_local(path)
        remote, init_s, ray_s, cpus = audit_ray(path)
    turns = len(local)
    flagged = sum(not json.loads(r)["ok"] for r in local)
    same = sorted(local) == sorted(remote)
    print(f"{conversations} conversations, {turns} assistant turns ({flagged} flagged), {size / 1e6:.1f} MB; "
          f"{os.cpu_count()} CPUs on this machine")
    print(f"same verdicts local vs ray (sorted, byte for byte): {same}")
    print(f"{'engine':<8} {'cores':>5} {'seconds':>8} {'turns/s':>8} {'core-s per 1M turns':>20} "
          f"{'USD per 1M turns':>17}")
    for name, cores, seconds in (("local", 1, local_s), ("ray", cpus, ray_s)):
        rate = turns / seconds
        core_s = 1e6 / rate * cores
        print(f"{name:<8} {cores:>5} {seconds:>8.1f} {rate:>8.0f} {core_s:>20.0f} "
              f"{core_s / 3600 * args.usd_per_core_hour:>17.3f}")
    print(f"ray / local throughput: {local_s / ray_s:.2f}x; checker build {build_s:.2f} s (local, once); "
          f"ray.init {init_s:.1f} s (not in the ray row); price assumed ${args.usd_per_core_hour}/core-hour")


if __name__ == "__main__":
    main()
