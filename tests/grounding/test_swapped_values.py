"""A line that names one record of a list and gives a value only another record of it holds."""

import pytest

from factcheck import CheckerConfig, FactChecker, Verdict

CHECKER = FactChecker(CheckerConfig(min_confidence=0))
CHECKIN = [{"name": "get_checkin_status", "args": {"pnr": "NX8K2D"}, "status": "ok", "output": {
    "flight": "MU5137", "passengers": [
        {"name": "张伟", "status": "CHECKED_IN", "seat": "32A", "ticket_no": "999-2155870340"},
        {"name": "李娜", "status": "CHECKED_IN", "seat": "32B", "ticket_no": "999-2155870341"},
        {"name": "Emma Lee", "status": "CHECKED_IN", "seat": "32C", "ticket_no": "999-2155870342"}]}}]


def swapped(answer: str) -> list[tuple[str, Verdict]]:
    return [(f.text, f.verdict) for c in CHECKER.check(answer, CHECKIN).claims for f in c.facts
            if f.code == "swapped_value"]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("- 李娜：已值机，座位 32C", [("32C", Verdict.CONTRADICTED)]),
        ("Emma Lee: ticket 999-2155870341.", [("999-2155870341", Verdict.CONTRADICTED)]),
        # the record's own value
        ("- 李娜：已值机，座位 32B", []),
        # two records named: the other's value may be said of the other
        ("李娜坐 32B，旁边是 Emma Lee 的 32C。", []),
        # the named record's own value is said too ("moved from 32B to 32C" is no swap this check reads)
        ("李娜的座位从 32B 换到了 32C。", []),
        # a name that holds another ("Emma" is no "Emma Lee"), and a part of a longer number, are not read
        ("Emma: seat 32A.", []),
        ("李娜：行李 32.5 公斤。", []),
        # a value asked for, after a word of a new value
        ("李娜的座位改为 32C。", []),
    ],
)
def test_a_value_only_another_record_holds_is_contradicted(answer: str, expected: list) -> None:
    assert swapped(answer) == expected



def test_a_swap_is_flagged_at_the_default_threshold_with_its_own_strength() -> None:
    checked_in = {"name": "check_in", "args": {}, "output": {"results": [
        {"pax": 1, "name": "James Okoro", "seat": "22A"}, {"pax": 2, "name": "Priya Okoro", "seat": "22B"},
        {"pax": 3, "name": "Daniel Okoro", "seat": "23C"}]}}
    answer = ("All three of you are checked in.\nJames Okoro — Seat: 22A\nPriya Okoro — Seat: 23C\n"
              "Daniel Okoro — Seat: 22B")
    facts = [f for c in FactChecker().check(answer, [checked_in]).claims for f in c.facts if f.code == "swapped_value"]
    assert [(f.text, f.strength, f.verdict.flagged and not f.uncertain) for f in facts] == [
        ("23C", "swapped", True), ("22B", "swapped", True)]


@pytest.mark.parametrize(
    "answer",
    [
        # a list line of a name and a seat in Chinese, each the other's: the swap flags the line on its own evidence
        "- 刘洋：22E\n- 王芳：39C",
        "| 旅客 | 座位 |\n|---|---|\n| 刘洋 | 22E |\n| 王芳 | 39C |",
    ],
)
def test_a_swapped_pair_of_seats_is_flagged_at_the_default_threshold(answer: str) -> None:
    booking = {"name": "get_booking", "args": {}, "output": {"passengers": [
        {"name": "张敏", "seat": "21A"}, {"name": "刘洋", "seat": "39C"}, {"name": "王芳", "seat": "22E"}]}}
    facts = [f for c in FactChecker().check(answer, [booking]).claims for f in c.facts if f.code == "swapped_value"]
    assert [(f.text, f.verdict.flagged and not f.uncertain) for f in facts] == [("22E", True), ("39C", True)]


@pytest.mark.parametrize(
    ("records", "answer", "expected"),
    [
        # a write's list named by `pax`, `passenger_name` or `traveller` (lexicon `record_name_fields`)
        ([{"pax": "ZHANG/WEI", "seat": "31A"}, {"pax": "LI/NA", "seat": "31B"}], "LI/NA：31A", ["31A"]),
        ([{"passenger_name": "Arjun Nair", "seat": "14B"}, {"passenger_name": "Meera Nair", "seat": "14C"}],
         "| Arjun Nair | 14C |", ["14C"]),
        ([{"traveller": "Jonas Keller", "seat": "61"}, {"traveller": "Lena Keller", "seat": "62"}],
         "Lena Keller: seat 61, window", ["61"]),
        # a field of codes ("T1", "T2") names no record: the name field after it does
        ([{"traveller": "T1", "name": "Jonas Keller", "seat": "61"},
          {"traveller": "T2", "name": "Lena Keller", "seat": "62"}], "Lena Keller: seat 61, window", ["61"]),
        # control: each record's own value
        ([{"pax": "ZHANG/WEI", "seat": "31A"}, {"pax": "LI/NA", "seat": "31B"}], "LI/NA：31B", []),
    ],
)
def test_records_named_by_a_passenger_field(records: list, answer: str, expected: list) -> None:
    call = {"name": "assign_seats", "args": {}, "status": "ok", "output": {"status": "SUCCESS", "assignments": records}}
    facts = [f.text for c in CHECKER.check(answer, [call]).claims for f in c.facts if f.code == "swapped_value"]
    assert facts == expected


FAMILY = [{"name": "get_booking", "args": {}, "status": "ok", "output": {"passengers": [
    {"pax": 1, "name": "Aiko Tanaka", "seat": "23A"}, {"pax": 2, "name": "Kenji Tanaka", "seat": "23B"},
    {"pax": 3, "name": "Yumi Tanaka", "seat": "23C"}]}}]
SHOP = [{"name": "get_order", "args": {}, "status": "ok", "output": {"items": [
    {"name": "Action Camera", "item_id": "4859937227"}, {"name": "Mechanical Keyboard", "item_id": "9690244451"}]}}]


@pytest.mark.parametrize(
    ("calls", "answer", "expected"),
    [
        # a family's member named by the first name alone
        (FAMILY, "- Kenji: 23A", ["23A"]),
        # controls: each one's own seat; a name said in full
        (FAMILY, "- Kenji: 23B", []),
        (FAMILY, "- Kenji Tanaka — 23B", []),
        # a product's first word names no record ("Action: return item …")
        (SHOP, "- Action: return item 9690244451", []),
    ],
)
def test_a_family_member_named_by_the_first_name(calls: list, answer: str, expected: list) -> None:
    facts = [f.text for c in CHECKER.check(answer, calls).claims for f in c.facts if f.code == "swapped_value"]
    assert facts == expected


PARCELS = [{"name": "get_order", "args": {"order_id": "20250613-77812"}, "status": "ok", "output": {"packages": [
    {"package_no": 1, "carrier": "顺丰速运", "tracking_no": "SF1428893310542", "plan": "5GB"},
    {"package_no": 2, "carrier": "中通快递", "tracking_no": "ZT73309152278", "plan": "10GB"}]}}]
QUOTES = [{"name": "get_renewal_quotes", "args": {}, "status": "ok", "output": [
    {"quote_id": "Q-B2", "name": "Standard", "annual": 589.5},
    {"quote_id": "Q-B3", "name": "Standard (paperless)", "annual": 574.2},
    {"quote_id": "Q-C4", "name": "Premier", "annual": 604.0}]}]


@pytest.mark.parametrize(
    ("calls", "answer", "expected"),
    [
        # records no name field names, told apart by their carrier (lexicon `record_label_fields`)
        (PARCELS, "电饭煲：顺丰速运，单号 ZT73309152278，今天派送。", [("ZT73309152278", Verdict.CONTRADICTED)]),
        (PARCELS, "电饭煲：顺丰速运，单号 SF1428893310542，今天派送。", []),
        # of a labelled record, only a value after its label in the same sentence
        (PARCELS, "ZT73309152278 还在路上；顺丰速运那个今天到。", []),
        # a short value of a labelled record ("5GB") is no code the label tells apart
        (PARCELS, "顺丰速运那个包裹：10GB。", []),
        # a name said only as a part of another record's name ("Standard" of "Standard (paperless)") names neither
        (QUOTES, "Standard, paperless (Q-B3): £574.20 a year.", []),
        (QUOTES, "Premier (Q-B3): £604.00 a year.", [("Q-B3", Verdict.CONTRADICTED)]),
        # both names said: the longer one is named, not the name inside it
        (QUOTES, "Standard (paperless) is Q-B2.", [("Q-B2", Verdict.CONTRADICTED)]),
    ],
)
def test_records_told_apart_by_a_label_field(calls: list, answer: str, expected: list) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, calls)
    assert [(f.text, f.verdict) for c in report.claims for f in c.facts if f.code == "swapped_value"] == expected


SEATS = [{"name": "get_booking", "args": {"pnr": "K7HX2D"}, "status": "ok", "output": {"passengers": [
    {"name": "周杰", "checked_in": True, "seat": "22A"}, {"name": "黄磊", "checked_in": True, "seat": "23C"},
    {"name": "吴倩", "checked_in": False, "seat": None}]}}]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # the named record has no seat: another's seat said after its name is that other's
        ("- 吴倩：已值机，座位 23C", [("23C", Verdict.CONTRADICTED)]),
        # the other's value before the name ("next to 23C"), or two others' values: not one said of the named record
        ("23C 旁边还空着，可以给吴倩选在 23C 旁边。", []),
        ("已值机的两位在 22A、23C，吴倩还没有座位。", []),
    ],
)
def test_a_record_with_no_value_said_with_another_records(answer: str, expected: list) -> None:
    report = FactChecker(CheckerConfig(min_confidence=0)).check(answer, SEATS)
    assert [(f.text, f.verdict) for c in report.claims for f in c.facts if f.code == "swapped_value"] == expected


TICKETS = {"name": "list_tickets", "args": {"requester": "zhao.min"}, "status": "ok", "output": [
    {"ticket": "INC0081452", "title": "打印机无法连接", "status": "处理中", "assignee": "刘洋", "type": "故障"},
    {"ticket": "RITM0033710", "title": "申请安装 Adobe Acrobat Pro", "status": "待审批", "assignee": "孙磊",
     "type": "申请"},
    {"ticket": "INC0079930", "title": "Outlook 无法同步", "status": "已关闭"}]}
RESERVATIONS = {"name": "list_reservations", "args": {"user": "u1"}, "status": "ok", "output": {"reservations": [
    {"id": "RSV-DEN-4103", "branch": "DEN Airport Counter B", "origin": "Denver"},
    {"id": "RSV-DEN-4104", "branch": "DEN Downtown", "origin": "Boulder"}]}}

LEGS = {"name": "get_itinerary", "args": {"pnr": "K7QM2D"}, "status": "ok", "output": {"flights": [
    {"flight": "HAT112X", "origin": "Boston", "destination": "Chicago"},
    {"flight": "HAT245X", "origin": "Chicago", "destination": "Seattle"}]}}


@pytest.mark.parametrize(
    ("answer", "tools", "said", "swapped"),
    [
        # a record named by its code, with another record's value in words
        ("INC0081452「打印机无法连接」——处理中，由孙磊跟进。", [TICKETS], "孙磊", True),
        ("Your reservation RSV-DEN-4103 is upcoming: pickup at DEN Downtown.", [RESERVATIONS], "DEN Downtown", True),
        # controls: its own value; the other record named too; the value before the code; a kind that names the other
        # record; a value the named record holds in another field
        ("INC0081452「打印机无法连接」——处理中，由刘洋跟进。", [TICKETS], "刘洋", False),
        ("INC0081452 由孙磊跟进，RITM0033710 也是。", [TICKETS], "孙磊", False),
        ("孙磊说 INC0081452 还在处理中。", [TICKETS], "孙磊", False),
        ("INC0081452 已处理，申请那张还在审批。", [TICKETS], "申请", False),
        ("Your reservation RSV-DEN-4104 starts in Boulder.", [RESERVATIONS], "Boulder", False),
        ("Your connection HAT245X leaves Chicago at 16:50.", [LEGS], "Chicago", False),
    ],
)
def test_a_word_of_another_record_after_a_records_code(answer: str, tools: list, said: str, swapped: bool) -> None:
    facts = [f for c in CHECKER.check(answer, tools).claims for f in c.facts if f.text == said]
    assert any(f.code == "swapped_value" for f in facts) is swapped, [(f.text, f.code, f.reason) for f in facts]


BOOKING = {"name": "get_booking", "args": {"pnr": "7HKD4L"}, "status": "ok", "output": {"passengers": [
    {"pax": "P1", "name": "WONG/KAIMING MR"}, {"pax": "P2", "name": "WONG/MEILING MS"},
    {"pax": "P3", "name": "WONG/JIAYI MISS"}]}}


@pytest.mark.parametrize(
    ("seats", "answer", "expected"),
    [
        # a list of seats keyed by the passenger's `pax`, the names in another call: each seat is its passenger's
        ([{"pax": "P1", "seat": "45D"}, {"pax": "P2", "seat": "45F"}, {"pax": "P3", "seat": "45E"}],
         "- WONG/KAIMING MR：45D\n- WONG/MEILING MS：45E\n- WONG/JIAYI MISS：45F", ["45E", "45F"]),
        ([{"pax": "P1", "seat": "45D"}, {"pax": "P2", "seat": "45F"}, {"pax": "P3", "seat": "45E"}],
         "- WONG/KAIMING MR：45D\n- WONG/MEILING MS：45F\n- WONG/JIAYI MISS：45E", []),
        # some passengers only, in another order: still one seat each
        ([{"pax": "P3", "seat": "45E"}, {"pax": "P2", "seat": "45F"}], "WONG/JIAYI MISS: seat 45F.", ["45F"]),
        # a key no passenger has, or one passenger twice: no record is named by the join
        ([{"pax": "P1", "seat": "45D"}, {"pax": "P9", "seat": "45F"}], "WONG/KAIMING MR: seat 45F.", []),
        ([{"pax": "P2", "seat": "45D"}, {"pax": "P2", "seat": "45F"}], "WONG/MEILING MS: seat 45F.", []),
    ],
)
def test_records_named_through_a_key_another_call_names(seats: list, answer: str, expected: list) -> None:
    calls = [BOOKING, {"name": "get_seat_assignments", "args": {"pnr": "7HKD4L"}, "status": "ok", "output": seats}]
    found = [f for c in CHECKER.check(answer, calls).claims for f in c.facts if f.code == "swapped_value"]
    assert [f.text for f in found] == expected
    assert all(f.verdict == Verdict.CONTRADICTED for f in found)


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        # whole numbers join records in a field of keys (`pax_id`), not in a field of places (`seq`)
        ("pax_id", ["14C"]),
        ("seq", []),
    ],
)
def test_records_joined_by_whole_numbers_only_in_a_key_field(field: str, expected: list) -> None:
    calls = [{"name": "get_booking", "args": {}, "status": "ok", "output": {"passengers": [
                 {field: 1, "name": "Daniel Okafor"}, {field: 2, "name": "Grace Okafor"}]}},
             {"name": "get_seats", "args": {}, "status": "ok", "output": {"seats": [
                 {field: 1, "seat": "14C"}, {field: 2, "seat": "14D"}]}}]
    found = [f.text for c in CHECKER.check("Grace Okafor is in seat 14C.", calls).claims for f in c.facts
             if f.code == "swapped_value"]
    assert found == expected


ASSIGNED_SEATS = [{"name": "get_booking", "args": {}, "status": "ok", "output": {"passengers": [
    {"pax_id": "P1", "name": "吴刚"}, {"pax_id": "P2", "name": "孙丽"}, {"pax_id": "P3", "name": "吴乐乐"}]}},
    {"name": "get_seat_assignments", "args": {}, "status": "ok", "output": {"assignments": [
        {"pax_id": "P1", "seat": "32D"}, {"pax_id": "P2", "seat": "32E"}, {"pax_id": "P3", "seat": "33F"}]}}]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # a code of the named record's field's shape in place of its own, that no tool output holds
        ("| 吴乐乐 | 儿童 | 32F |", ["32F"]),
        ("吴乐乐：座位 32F。", ["32F"]),
        # its own; a code some tool holds; two codes of the shape (a sentence that compares); one before the name
        ("吴乐乐：座位 33F。", []),
        ("吴乐乐：座位 32E。", ["32E"]),
        ("吴乐乐可以从 33F 换到 32F。", []),
        ("32F 旁边还空着，吴乐乐可以坐。", []),
    ],
)
def test_a_code_said_in_place_of_the_records_own(answer: str, expected: list) -> None:
    found = [f.text for c in CHECKER.check(answer, ASSIGNED_SEATS).claims for f in c.facts if f.code == "swapped_value"]
    assert found == expected
