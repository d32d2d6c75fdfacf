"""Reading stored conversations: every format, and the notes bad records get."""

from __future__ import annotations

import json

import histories as h
import pytest

from factcheck.audit.messages import RecordError, read_conversation


@pytest.mark.parametrize("fmt", h.FORMATS)
def test_every_format_reads_to_the_same_turns(fmt):
    record = json.loads(json.dumps(h.as_format(h.seed_001(), fmt, "s1"), ensure_ascii=False))
    conv = read_conversation(record, 7)
    assert conv.id == ("s1" if fmt != "openai-list" else 7)
    assert [m.role for m in conv.messages] == [m["role"] for m in h.seed_001()]
    tool = conv.messages[3]
    assert (tool.name, tool.tool_call_id) == ("image_generate", "call_img_771_1")
    assert conv.messages[2].tool_calls == [{"id": "call_img_771_1", "name": "image_generate",
                                            "args": {"prompt": "战斗机"}}]
    assert conv.messages[-1].text == f"![生成的图片]({h.FAKE_IMG})"
    assert conv.notes == []


@pytest.mark.parametrize("fmt, accepted", [("openai", ["openai", "openai-list"]),
                                           ("langchain", ["messages_to_dict", "dumpd", "langgraph-state"])])
def test_a_named_format_reads_only_its_own_messages(fmt, accepted):
    for stored in h.FORMATS:
        record = json.loads(json.dumps(h.as_format(h.seed_000(), stored, "s0"), ensure_ascii=False))
        conv = read_conversation(record, 1, fmt)
        if stored in accepted:
            assert len(conv.messages) == 7 and conv.notes == []
        else:
            assert conv.messages == [] and len(conv.notes) == 7
            assert "unknown role" in conv.notes[0]


def test_content_blocks_keep_their_text_and_where_it_is():
    record = {"messages": [{"role": "assistant", "content": [
        {"type": "text", "text": "Here it is: "}, {"type": "image_url", "image_url": {"url": "x"}},
        {"type": "text", "text": h.IMG1}]}]}
    (msg,) = read_conversation(record, 1).messages
    assert msg.text == "Here it is: " + h.IMG1
    assert [(p.path, p.start) for p in msg.parts] == [(("messages", 0, "content", 0, "text"), 0),
                                                      (("messages", 0, "content", 2, "text"), 12)]


BAD_MESSAGES = [
    # (message list, note fragment)
    ([{"role": "moderator", "content": "hi"}], "message 0: unknown role 'moderator'"),
    ([{"type": "robot", "data": {"content": "hi"}}], "message 0: unknown role 'robot'"),
    (["just text"], "message 0: not an object (str); skipped"),
    ([{"role": "tool", "content": "42"}], "message 0: tool result without tool_call_id"),
    ([{"role": "tool", "tool_call_id": "ghost", "content": "42"}],
     "message 0: tool result for call 'ghost', which no earlier assistant message made"),
    ([h.call_msg("c9", "image_generate", {})], "call 'c9' (image_generate) has no tool result"),
    ([{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "function": {"name": "f", "arguments": "{not json"}}]}, h.tool_msg("c1", "ok")],
     "message 0: tool call 0 has arguments that are not JSON"),
    ([{"role": "assistant", "content": None, "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
     "message 0: tool call 0 (f) has no id"),
]


@pytest.mark.parametrize("messages, note", BAD_MESSAGES)
def test_bad_messages_get_a_clear_note(messages, note):
    conv = read_conversation({"messages": messages}, 3)
    assert any(note in n for n in conv.notes), conv.notes


@pytest.mark.parametrize("record, error", [
    ("text", "not str"),
    ({"turns": []}, "no 'messages' list"),
    ({"values": {"history": []}}, "no 'messages' list"),
    (42, "not int"),
])
def test_a_record_without_messages_is_a_record_error(record, error):
    with pytest.raises(RecordError, match=error):
        read_conversation(record, 1)


def test_arrow_filled_none_fields_read_as_absent():
    # a Ray/Arrow row unions the keys of every message and fills the missing ones with None
    keys = ("role", "content", "tool_calls", "tool_call_id", "name")
    record = {"messages": [{k: m.get(k) for k in keys} for m in h.seed_001()]}
    conv = read_conversation(record, 1)
    assert conv.notes == [] and len(conv.messages) == 11
