"""`factcheck audit`: JSON Lines, summary, exit status, bad input, --fix and --report."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import histories as h
import pytest

from factcheck.cli import main


@pytest.fixture
def seeds(tmp_path: Path) -> Path:
    return h.write_jsonl(tmp_path / "histories.jsonl", [
        h.as_format(h.seed_001(), "openai", "seed-001"),
        h.as_format(h.seed_000(), "messages_to_dict", "seed-000"),
        h.as_format(h.clean_history(50), "langgraph-state", "clean"),
    ])


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["audit", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_json_lines_one_object_per_assistant_text_turn(seeds, capsys):
    code, out, err = run(capsys, str(seeds), "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert len(records) == 3 + 1 + 50
    assert {"conversation", "turn", "ok", "report", "file", "line", "chained"} <= set(records[0])
    assert [(r["conversation"], r["turn"]) for r in records if not r["ok"]] == [("seed-001", 10), ("seed-000", 6)]
    assert records[0]["report"]["answer"].startswith("图片已生成")
    assert "flagged turns" in err  # the summary goes to stderr with --json, stdout stays JSON Lines


def test_summary_counts_turns_kinds_and_reasons(seeds, capsys):
    code, out, _ = run(capsys, str(seeds))
    assert code == 1
    rows = dict(line.rsplit(None, 1) for line in out.splitlines() if line.strip() and line[-1].isdigit()
                and ": " not in line)
    assert rows["conversations"] == "3"
    assert rows["assistant text turns"] == "54"
    assert rows["flagged turns"] == "2"
    assert rows["url"] == "2" and rows["identifier"] == "1" and int(rows["action"]) >= 1
    assert rows["not_found"] == "3" and int(rows["no_tool_call"]) >= 1
    assert f"conversation seed-001 turn {h.SEED_001_FABRICATED}: unsupported" in out


def test_turns_with_links_and_no_tool_chain_at_all_are_counted(tmp_path, capsys):
    legacy = [{"role": "user", "content": "生成一张图片"},  # an old record: the answer stored, its chain not
              {"role": "assistant", "content": f"图片已生成！![图片]({h.IMG1})"}]
    path = h.write_jsonl(tmp_path / "legacy.jsonl", [legacy, h.seed_001()])
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert "turns with links/IDs and no tool chain at all      1" in out


def test_clean_history_exits_0(tmp_path, capsys):
    path = h.write_jsonl(tmp_path / "clean.jsonl", [h.as_format(h.clean_history(50), "dumpd", "clean")])
    code, out, _ = run(capsys, str(path))
    assert code == 0
    assert "flagged turns                                      0" in out


def test_bad_lines_are_noted_by_number_and_the_rest_is_audited(tmp_path, capsys):
    good = json.dumps(h.seed_001(), ensure_ascii=False).encode()
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join([
        good,
        b'{"messages": [',                            # 2: cut off
        b"42",                                        # 3: not a conversation
        b"",                                          # 4: blank, ignored
        '[{"role": "user", "content": "caf\xe9"}]'.encode("latin-1"),  # 5: not UTF-8
        json.dumps({"messages": [{"role": "moderator", "content": "x"}]}).encode(),  # 6: unknown role
        good,                                         # 7
    ]) + b"\n")
    code, out, err = run(capsys, str(path), "--json")
    assert code == 2  # some input skipped
    assert f"{path}:2: invalid JSON" in err and "line skipped" in err
    assert f"{path}:3: not a conversation" in err
    assert f"{path}:5: not valid UTF-8" in err
    assert f"{path}:6: message 0: unknown role 'moderator'" in err
    lines = sorted({json.loads(x)["line"] for x in out.splitlines()})
    assert lines == [1, 7]  # the lines after the bad ones are still audited
    assert f"{path}:6: not a conversation: no item of it is a message; line skipped" in err
    assert "lines skipped (bad input)                          3" in err


def test_an_unreadable_file_is_noted_and_the_others_audited(seeds, tmp_path, capsys):
    code, out, err = run(capsys, str(tmp_path / "missing.jsonl"), str(seeds), "--json")
    assert code == 2
    assert "missing.jsonl: cannot read" in err
    assert len(out.splitlines()) == 54


def test_a_multi_megabyte_tool_result_gets_a_note_not_a_crash(tmp_path, capsys):
    big = "log line " * 500_000 + h.IMG1  # 4.5 MB, past the checker's 4,000,000-character cut
    messages = [{"role": "user", "content": "生成一张图片"}, h.call_msg("c1", "image_generate", {}),
                h.tool_msg("c1", big), {"role": "assistant", "content": "图片生成好了，请查看。"}]
    path = h.write_jsonl(tmp_path / "big.jsonl", [messages])
    code, out, err = run(capsys, str(path), "--json")
    assert code == 0
    (record,) = [json.loads(x) for x in out.splitlines()]
    assert record["ok"] and any("4000000" in n or "4,000,000" in n for n in record["report"]["notes"])
    assert f"{path}:1: message 2: tool result of 4.5 million characters" in err
    assert f"{path}:1: message 3:" in err  # the checker's own note on the cut


def test_fix_replaces_unbacked_links_and_ids_in_place_and_reloads(seeds, tmp_path, capsys):
    fixed = tmp_path / "fixed.jsonl"
    code, out, _ = run(capsys, str(seeds), "--fix", str(fixed))
    assert code == 1
    assert "fixed turns                                        2" in out
    assert "links removed                                      2" in out
    assert "identifiers removed                                1" in out
    before, after = seeds.read_bytes().splitlines(True), fixed.read_bytes().splitlines(True)
    assert len(after) == len(before) and after[2] == before[2]  # the clean conversation: byte-identical
    assert after[0].decode() == before[0].decode().replace(h.FAKE_IMG, "[未经核实的链接已移除]")
    assert after[1].decode() == (before[1].decode().replace(h.FAKE_LINK, "[未经核实的链接已移除]")
                                 .replace(h.FAKE_REG, "[未经核实的编号已移除]"))  # no message added or dropped
    code, out, _ = run(capsys, str(fixed), "--json")
    records = [json.loads(x) for x in out.splitlines()]
    assert len(records) == 54  # it parses and reloads
    flags = [(r["conversation"], f["kind"]) for r in records for c in r["report"]["claims"] for f in c["facts"]
             if f["verdict"] != "supported" and f["verdict"] != "unverifiable" and not f["uncertain"]]
    assert ("seed-001", "url") not in flags and ("seed-000", "identifier") not in flags
    read = [f["text"] for r in records for c in r["report"]["claims"] for f in c["facts"]]
    assert not [t for t in read if "已移除" in t or "removed" in t]  # the placeholders are no claims
    unbacked = [(r["conversation"], f["kind"]) for r in records for c in r["report"]["claims"] for f in c["facts"]
                if f["verdict"] == "unsupported"]
    assert ("seed-000", "action") in unbacked  # the narrated publish is still unbacked: no call was invented


def test_fix_keeps_ascii_escaping_and_english_placeholders(tmp_path, capsys):
    english = [{"role": "user", "content": "Make an image"}, *h.image_chain("c1", "jet", h.IMG1)[:2],
               {"role": "user", "content": "One more"},
               {"role": "assistant", "content": "Here you go: https://cdn.imgs.test/gen/made_up_777.png"}]
    path = tmp_path / "escaped.jsonl"
    path.write_text(json.dumps(h.seed_001()) + "\n" + json.dumps(english) + "\n", encoding="utf-8")
    fixed = tmp_path / "fixed.jsonl"
    run(capsys, str(path), "--fix", str(fixed))
    zh, en = fixed.read_text(encoding="utf-8").splitlines()
    assert zh.isascii() and json.loads(zh)[-1]["content"] == "![生成的图片]([未经核实的链接已移除])"
    assert json.loads(en)[-1]["content"] == "Here you go: [unverified link removed]"


def test_fix_never_writes_over_the_input(seeds, capsys):
    before = seeds.read_bytes()
    code, _, err = run(capsys, str(seeds), "--fix", str(seeds))
    assert code == 2 and "never writes over its input" in err
    assert seeds.read_bytes() == before


def test_report_writes_the_flagged_turns_as_html(seeds, tmp_path, capsys):
    page = tmp_path / "audit.html"
    code, out, _ = run(capsys, str(seeds), "--report", str(page))
    text = page.read_text(encoding="utf-8")
    assert code == 1 and f"HTML report: {page}" in out
    assert "<script" not in text and "Flagged turns (2)" in text
    assert "conversation seed-001, turn 10" in text and h.FAKE_REG in text
    assert '<span class="flag">' in text
    seed_000 = text[text.index("conversation seed-000"):]
    call = "humanize_article</b>({&quot;article_id&quot;: &quot;A-17&quot;})"
    assert seed_000.index("<b>user:</b> 执行今天的内容生产任务") < seed_000.index(call) \
        < seed_000.index('class="flagged-claim"')  # what the user asked and the tools gave, before the flags
    seed_001 = text[text.index("conversation seed-001"):text.index("conversation seed-000")]
    assert "<b>user:</b> 再生成两张" in seed_001 and "no tool result in this turn" in seed_001
    assert text.index('id="flagged"') < text.index("<table")  # the flagged turns come before the tables
    assert 'class="legend"' in text and "labels as hallucinated" not in text  # no gold spans in an audit


def test_a_flagged_record_carries_the_user_message_and_tool_results_before_it(seeds, capsys):
    code, out, _ = run(capsys, str(seeds), "--json")
    records = [json.loads(x) for x in out.splitlines()]
    flagged = {r["conversation"]: r["before"] for r in records if not r["ok"]}
    assert all("before" not in r for r in records if r["ok"])
    assert flagged["seed-000"]["user"] == "执行今天的内容生产任务"
    assert [(t["name"], t["args"]) for t in flagged["seed-000"]["tool_results"]] == [
        ("generate_article", {"topic": "AI agents"}), ("humanize_article", {"article_id": "A-17"})]
    assert flagged["seed-001"] == {"user": "再生成两张", "tool_results": []}


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty, shown", [(False, False), (True, True)])
def test_progress_bar_only_on_a_tty(seeds, monkeypatch, capsys, tty, shown):
    stream = _Tty() if tty else io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    main(["audit", str(seeds), "--json"])
    capsys.readouterr()
    drawn = stream.getvalue()
    assert ("3/3" in drawn and "conversations/s" in drawn) == shown


def test_progress_shows_the_turns_inside_a_long_conversation(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("factcheck.progress._REFRESH_S", 0.0)  # draw every step
    stream = _Tty()
    monkeypatch.setattr("sys.stderr", stream)
    path = h.write_jsonl(tmp_path / "long.jsonl", [h.as_format(h.clean_history(30), "openai", "long")])
    main(["audit", str(path)])
    capsys.readouterr()
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())
    turns = [int(m) for m in re.findall(r"long.jsonl:1: turn\D*?(\d+)/30", drawn)]
    assert len(turns) > 5 and turns == sorted(turns), drawn[-600:]


def test_an_unreachable_ray_cluster_is_a_clear_error(seeds, monkeypatch, capsys):
    import ray

    def refuse(**kwargs):
        raise ConnectionError(f"no cluster at {kwargs.get('address')}")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    code, out, err = run(capsys, str(seeds), "--engine", "ray", "--ray-address", "ray://nowhere:10001")
    assert code == 2 and out == ""
    assert "cannot start or reach Ray at ray://nowhere:10001: no cluster at ray://nowhere:10001" in err


@pytest.mark.parametrize("fmt", h.FORMATS)
def test_fix_rewrites_only_the_fabricated_link_in_every_format(fmt, tmp_path, capsys):
    path = h.write_jsonl(tmp_path / f"{fmt}.jsonl", [h.as_format(h.seed_001(), fmt, "seed-001")])
    fixed = tmp_path / "fixed.jsonl"
    code, _, _ = run(capsys, str(path), "--fix", str(fixed))
    assert code == 1
    assert fixed.read_text(encoding="utf-8") == path.read_text(encoding="utf-8").replace(
        h.FAKE_IMG, "[未经核实的链接已移除]")


def test_fix_inside_content_blocks(tmp_path, capsys):
    blocks = [{"type": "text", "text": "再来两张："}, {"type": "image_url", "image_url": {"url": h.FAKE_IMG}},
              {"type": "text", "text": f"![图]({h.FAKE_IMG})"}]
    messages = [*h.seed_001()[:-1], {"role": "assistant", "content": blocks}]
    path = h.write_jsonl(tmp_path / "blocks.jsonl", [messages])
    fixed = tmp_path / "fixed.jsonl"
    run(capsys, str(path), "--fix", str(fixed))
    content = json.loads(fixed.read_text(encoding="utf-8"))[-1]["content"]
    assert content[2]["text"] == "![图]([未经核实的链接已移除])"
    assert content[:2] == blocks[:2]  # the image block is not text the answer was checked on: left as stored


def test_fix_keeps_a_byte_order_mark_and_crlf_line_ends(tmp_path, capsys):
    line = json.dumps(h.as_format(h.seed_001(), "openai", "s"), ensure_ascii=False).encode()
    path = tmp_path / "windows.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + line + b"\r\n" + line + b"\r\n")
    fixed = tmp_path / "fixed.jsonl"
    code, _, _ = run(capsys, str(path), "--fix", str(fixed))
    assert code == 1
    assert fixed.read_bytes() == path.read_bytes().replace(h.FAKE_IMG.encode(), "[未经核实的链接已移除]".encode())
