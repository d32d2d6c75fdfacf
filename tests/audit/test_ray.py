"""`--engine ray` and `audit_dataset`: a small Ray job in local mode gives the local engine's verdicts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import histories as h
import pytest
import ray
import ray.data

from factcheck.audit import audit_dataset
from factcheck.cli import main


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture
def histories(tmp_path: Path) -> list[Path]:
    first = h.write_jsonl(tmp_path / "a.jsonl", [
        h.as_format(h.seed_001(), "openai", "seed-001"),
        h.as_format(h.clean_history(10), "dumpd", "clean"),
    ])
    second = tmp_path / "b.jsonl"
    second.write_text(json.dumps(h.as_format(h.seed_000(), "messages_to_dict", "seed-000"), ensure_ascii=False)
                      + "\n{broken\n", encoding="utf-8")
    return [first, second]


_RAY_NOTICE = re.compile(r"^(?:\x1b\[\d+m)?\((?:raylet|pid=\d+)[^)]*\)")
"""A line Ray's driver prints on stdout by itself, at any time ("(raylet) A worker died …"): not the command's."""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["audit", *argv])
    captured = capsys.readouterr()
    out = "".join(line for line in captured.out.splitlines(keepends=True) if not _RAY_NOTICE.match(line))
    return code, out, captured.err


def test_engine_ray_gives_the_local_verdicts_byte_for_byte(local_ray, histories, tmp_path, capsys):
    paths = [str(p) for p in histories]
    local_code, local_out, local_err = run(capsys, *paths, "--json", "--fix", str(tmp_path / "local.jsonl"))
    ray_code, ray_out, ray_err = run(capsys, *paths, "--json", "--engine", "ray", "--fix", str(tmp_path / "ray.jsonl"))
    assert ray_code == local_code == 2  # the broken line is reported either way
    assert sorted(ray_out.splitlines()) == sorted(local_out.splitlines())
    assert len(local_out.splitlines()) == 3 + 10 + 1
    assert f"{histories[1]}:2: invalid JSON" in ray_err
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    def notes(err: str) -> list[str]:
        return [line for line in err.splitlines() if line.startswith("factcheck audit: ")]

    assert notes(ray_err) == notes(local_err) != []


def test_audit_dataset_on_rows_of_text_and_of_messages(local_ray, histories, capsys):
    lines = histories[0].read_text(encoding="utf-8").splitlines()
    as_text = ray.data.from_items([{"text": t, "line": n} for n, t in enumerate(lines, start=1)])
    records = [h.as_format(h.seed_001(), "openai", "seed-001"), h.as_format(h.seed_000(), "openai", "seed-000")]
    as_columns = ray.data.from_items(records)
    by_text = audit_dataset(as_text).take_all()
    by_columns = audit_dataset(as_columns, concurrency=1).take_all()
    assert {(r["conversation"], r["turn"]) for r in by_text if not r["ok"]} == {("seed-001", 10)}
    assert len(by_text) == 13
    assert sorted((r["conversation"], r["turn"], r["ok"]) for r in by_columns) == [
        ("seed-000", 6, False), ("seed-001", 4, True), ("seed-001", 8, True), ("seed-001", 10, False)]
    _, local_out, _ = run(capsys, str(histories[0]), "--json")
    local = {(r["conversation"], r["turn"]): r["report"] for r in map(json.loads, local_out.splitlines())}
    assert all(json.loads(r["record"])["report"] == local[(r["conversation"], r["turn"])] for r in by_text)
