"""Lexicons (status words, negators, units, number words) loaded from data files."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from factcheck.phrases import Hit, Phrases, term_key

T = TypeVar("T")

SHIPPED = ("zh", "en")
DONE_CONCEPT = "done"
"""The concept of an action the agent says it did, whatever it was ("I've redeemed…", 已为您解冻): no tool's concept;
only a run whose every action call failed speaks of it."""
_TIME_DIMENSION = "time"
"""The `unit_scales` dimension whose units are durations, in seconds."""
SPEECH_ACT_KEYS = (
    "assertion_openers", "offer_openers", "offer_markers", "policy_markers", "request_openers",
    "imperative_openers",
)
"""The lexicon lists that tell a claim's speech act (see `factcheck.extractors.speech_acts`)."""
_MERGED_DICTS = (
    "concepts", "status_terms", "action_tools", "currencies", "number_words", "numerals",
    "numeral_units", "fields", "months", "negation_window", "duration_days", "duration_compound_units",
    "unit_scales",
    "payment_methods",
    "currency_symbols", "weekdays", "status_implies", "other_senses", "time_zones", "label_companions",
    "fields_after", "record_states", "directions", "collection_words", "difference_words", "threshold_words",
    "member_words", "date_roles", "date_role_fields", "outcome_states", "flag_words", "day_parts",
    "unit_dimensions", "unit_dimension_fields", "unit_dimension_pairs",
)
_MERGED_LISTS = (
    "negators", "count_nouns", "id_keywords", "abbreviations", "hedges", "hedges_after",
    "completion_markers", "completion_markers_far", "agent_markers", "beneficiary_markers", "noun_heads",
    "standing_markers", "place_markers", "evidence_hedges",
    "conditional_openers",
    "minor_unit_fields", "past_hour_markers", "approximators_after", "earlier_markers",
    "rate_cues",
    "name_stopwords",
    "read_only_tool_prefixes", "count_adjectives", "payment_method_cues", "payment_method_cues_after",
    "payment_method_fields", "not_count_prefixes", "numeral_idioms", "other_record_words", "suffix_cues",
    "generic_concepts", "status_fields", "advice_markers", "all_words", "approximators", "hedge_exceptions",
    "currency_fields", "record_key_fields", "categories_links", "categories_owners", "generic_field_labels",
    "not_money_labels", "money_labels", "duration_labels", "share_labels", "member_measure_labels",
    "clause_conjunctions",
    *SPEECH_ACT_KEYS, "user_doers", "user_beneficiaries", "derivation_cues", "presenting_terms",
    "generic_currency_words", "per_unit_words", "multiplicity_fields", "superlatives_low", "superlatives_high",
    "option_lists", "selection_scopes", "new_value_cues", "record_state_concepts", "direction_fields",
    "direction_text_fields", "seat_words", "seat_fields", "charge_values", "refund_values", "available_words",
    "unit_fields", "unbookable_states", "capacity_fields",
    "party_nouns", "deduction_words", "credit_objects", "comparison_markers", "whole_count_cues", "piece_units",
    "generic_tool_words", "partial_outcomes", "part_count_cues",
    "added_count_cues", "superlatives_early", "superlatives_fast", "superlative_qualifiers", "record_pronouns",
    "record_name_fields", "record_label_fields",
    "limit_fields", "date_bounds", "deadline_words", "deadline_cues", "weekly_cues", "business_day_cues",
    "relative_days",
    "expectation_fields",
    "completion_concepts", "working_cues", "done_openers", "done_words", "done_read_verbs",
    "confirmed_words", "all_in_cues", "fee_fields", "plain_amount_words",
)


@dataclass(frozen=True)
class Term:
    """A lexicon word with what it says about a status."""

    text: str
    concept: str | None
    polarity: str | None
    action: bool = False
    evidence_only: bool = False
    field_polarity: str | None = None
    """What the word says of another concept when it is the value of that concept's field
    (`{"booking_status": "cancelled"}`: the booking is off, `negative`); None: nothing."""


_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_MONTH_MAY = re.compile(r"May\s+\d{1,2}(?!\d)")
"""The month May before a day ("May 22–25"): a date, not the hedge "may"."""



def split_camel(name: str) -> str:
    """A camelCase name with its words apart (`amountCents` -> `amount_Cents`), as field and tool names are read."""
    if name.islower():  # snake_case and lower-case names: nothing to split (the common case, and fast)
        return name
    return _CAMEL.sub(_word_break, name)


def _word_break(m: re.Match[str]) -> str:
    return m[1] + "_" + m[2]


def field_name(path: str) -> str:
    """The last field name of a path or shape, as lexicon words (`items[].isRefunded` -> `is refunded`)."""
    return term_key(split_camel(path.rsplit(".", 1)[-1].replace("[]", "")))


@dataclass
class Lexicon:
    """All lexicon data merged across languages, with the phrase matchers built from it."""

    data: dict[str, Any]
    terms: dict[str, Term] = field(init=False)
    """Status terms and concept words by key."""
    term_phrases: Phrases = field(init=False)
    negators: Phrases = field(init=False)
    hedge_exceptions: Phrases = field(init=False)
    """Words holding a hedge that are no hedge (申请 holds 请)."""
    hedges: Phrases = field(init=False)
    hedges_after: Phrases = field(init=False)
    completion: Phrases = field(init=False)
    completion_far: Phrases = field(init=False)
    agent_markers: tuple[str, ...] = field(init=False)
    beneficiary_markers: tuple[str, ...] = field(init=False)
    """Words right before a concept word that make it what an action is for (已为订单 88231 退款), not the action."""
    place_markers: tuple[str, ...] = field(init=False)
    """Words right before a concept word that make it where an action took something from (从订单里去掉), not the
    action."""
    evidence_hedges: Phrases = field(init=False)
    """Words of a requirement in a tool's text (需, must): a status word after one states a condition, not a state."""
    noun_heads: tuple[str, ...] = field(init=False)
    """Nouns right after a concept word that it only modifies (退款申请: a request, no refund done)."""
    standing_markers: Phrases = field(init=False)
    conditional_openers: Phrases = field(init=False)
    past_hour_markers: Phrases = field(init=False)
    earlier_markers: Phrases = field(init=False)
    rate_cues: Phrases = field(init=False)
    approximators_after: Phrases = field(init=False)
    minor_units: Phrases = field(init=False)
    field_phrases: Phrases = field(init=False)
    fields_after: Phrases = field(init=False)
    field_after_of: dict[str, str] = field(init=False)
    concept_words: dict[str, tuple[str, ...]] = field(init=False)
    """Concept -> a word of each of its terms, to find the texts that may speak of it."""
    field_words: dict[str, tuple[str, ...]] = field(init=False)
    """Field label -> a word of each of its field names, to find the texts that may name it."""
    field_of: dict[str, str] = field(init=False)
    """Field word key -> field label (`退款` -> refund)."""
    action_tools: dict[str, tuple[str, ...]] = field(init=False)
    payment_methods: Phrases = field(init=False)
    """Words naming where money goes or comes from (card, store credit, 支付宝)."""
    payment_method_of: dict[str, str] = field(init=False)
    """Payment-method word key -> its category (`credit card` -> card)."""
    payment_method_cues: Phrases = field(init=False)
    payment_method_cues_after: Phrases = field(init=False)
    payment_method_fields: Phrases = field(init=False)
    approximators: Phrases = field(init=False)
    """Words right before a round number that make it approximate (about 1,860, 约 1860)."""
    all_words: Phrases = field(init=False)
    """Words that make a status speak of everything the run did (all done, 全部完成)."""
    advice_markers: Phrases = field(init=False)
    """Words that open a clause of advice ("please arrive about 10 minutes early", 请提前): its counts are not facts."""
    status_fields: Phrases = field(init=False)
    """Field names whose values are a record's status (status, state, 状态)."""
    generic_concepts: frozenset[str] = field(init=False)
    """Concepts that stand for whatever the run's records are (order, ticket): with no status of their
    own in the outputs, they are compared with the statuses of the outputs' status fields."""
    status_implies: dict[tuple[str, ...], list[tuple[str, ...]]] = field(init=False)
    """(concept, polarity) of a tool's status -> the (concept, polarity) it also states (out for delivery: shipped)."""
    suffix_cues: Phrases = field(init=False)
    """Words that make the number after them the end of an identifier (ending in 4471, 尾号 4471)."""
    name_stopwords: frozenset[str] = field(init=False)
    """Capitalised words that start a sentence or a date and never name anything (The, Your, May)."""
    other_record_words: Phrases = field(init=False)
    """Words that make a clause speak of other records than the one its claim names (其余, the rest)."""
    record_pronouns: Phrases = field(init=False)
    """Pronouns that open a claim about the records the claim before named (It departs at 08:40; 它)."""
    status_words: frozenset[str] = field(init=False)
    """Every word of a status term, lower case ("progress" of "in progress"): such a word names no record."""
    user_beneficiaries: Phrases = field(init=False)
    """Words that make the user the one an action is for, not its doer (为您生成, 帮您退款)."""
    derivation_cues: Phrases = field(init=False)
    """Words that make a claim's number worked out from others (price difference, in total, 差价, 合计)."""
    per_unit_words: Phrases = field(init=False)
    """Words that make a claim's amount one per unit (each, per person, 每人): no total to recompute."""
    total_words: Phrases = field(init=False)
    """The words of the `total` field label (total, in total, 合计): a claim's amount beside one is a total."""
    quantity_fields: frozenset[str] = field(init=False)
    """The words of the `quantity` field label (quantity, qty, 数量): a price beside one is per unit."""
    multiplicity_fields: frozenset[str] = field(init=False)
    """Names of the lists that multiply a per-unit amount (passengers, guests, nights, 乘客)."""
    superlatives: Phrases = field(init=False)
    """Words that select one option by its amount (cheapest, most expensive, 最便宜)."""
    superlatives_low: frozenset[str] = field(init=False)
    """Keys of the superlatives that select the lowest amount."""
    superlatives_early: Phrases = field(init=False)
    """Words that pick an option by its time (earliest, 最早): its date is re-ranked among the options' dates."""
    superlatives_fast: Phrases = field(init=False)
    """Words that pick an option by how soon it arrives (fastest, 最快): its delivery date is re-ranked."""
    superlative_qualifiers: Phrases = field(init=False)
    """Words that narrow which options a superlative ranks (evening, after, 周末): the pick is not re-ranked."""
    deadline_words: Phrases = field(init=False)
    """Words of a deadline an option must meet (in time, before Friday, 来得及): a cheapest pick under one is not
    re-ranked (the options' arrival is not compared with it)."""
    all_in_cues: tuple[str, ...] = field(init=False)
    """Words that rank options by their price plus fees (all-in, 含运费), lower case."""
    fee_fields: tuple[str, ...] = field(init=False)
    """Words of an option's field that make it a fee added to its price (fees, shipping), lower case."""
    day_parts: dict[str, tuple[float, float]] = field(init=False)
    """A part of the day -> the hours it spans (morning: 5 to 12, 下午: 12 to 18): a superlative scoped by one ranks
    the options that start then."""
    day_part_words: Phrases = field(init=False)
    """The words of `day_parts`."""
    flag_words: dict[str, tuple[str, ...]] = field(init=False)
    """A word of a true-or-false field's name -> other words a claim names it by (refundable: 可免费取消, free
    cancellation; smoking: 烟, so 无烟 wants it false): a superlative scoped by one ranks the options that hold it."""
    weekday_words: Phrases = field(init=False)
    """Names of the days of the week (Friday, 周五): `weekday_of` gives each one's day, 0 for Monday."""
    weekday_of: dict[str, int] = field(init=False)
    """A day name (lower case) -> its day of the week, 0 for Monday."""
    deadline_cues: Phrases = field(init=False)
    """Words right before a date or weekday that make it the last day an option may arrive (by Dec 6, beats
    Friday, 赶在): a cheapest pick under one is re-ranked over the options that arrive by then."""
    weekly_cues: Phrases = field(init=False)
    """Words of a weekly cycle (每周, every week): a date a week from a tool's is worked out, not misread."""
    business_day_cues: Phrases = field(init=False)
    """Words of business days (工作日, business days): a date that many business days from a tool's is worked out."""
    record_names: frozenset[str] = field(init=False)
    """The fields that hold a record's name (lexicon `record_name_fields`), as `field_name` reads them."""
    seat_fields: frozenset[str] = field(init=False)
    """Fields that hold a passenger's seat (lexicon `seat_fields`): the seat keys the passenger's record."""
    record_labels: frozenset[str] = field(init=False)
    """The fields that tell records apart when none has a name (`record_label_fields`), as `field_name` reads them."""
    relative_days: Phrases = field(init=False)
    """Words of a day counted from today or from another date (tomorrow, the next business day, 明天, 次日): a date
    said beside one is worked out, not a record's own."""
    selection_scopes: Phrases = field(init=False)
    """Words that scope a superlative to the items just listed (of these, among them, 其中): any list ranks."""
    new_value_cues: Phrases = field(init=False)
    """Words that make a claim's value one asked for, not one a record holds (new, change to, 改为)."""
    record_state_words: Phrases = field(init=False)
    """The words of every record state (pending, delivered, 已签收)."""
    record_state_of: dict[str, str] = field(init=False)
    """State word key -> its state (`canceled` -> `cancelled`)."""
    record_state_implies: dict[str, tuple[str, ...]] = field(init=False)
    """State -> the states it implies (`delivered` -> shipped, processed)."""
    outcome_state_words: Phrases = field(init=False)
    """The words of an operation's outcome a count of records stands beside (成功, failed; lexicon
    `outcome_states`): read by the state counts only, since a status said done (取消成功) names no record state."""
    outcome_state_of: dict[str, str] = field(init=False)
    """Outcome word key -> its outcome (`successful` -> `succeeded`)."""
    record_state_concepts: frozenset[str | None] = field(init=False)
    """Concepts (None: none, `"none"` in the file) whose status words may speak of a record's state."""
    unbookable_states: Phrases = field(init=False)
    """An option's status words that say it cannot be had (cancelled, sold out, 售罄): a selection skips it."""
    deduction_words: Phrases = field(init=False)
    """Words that take an amount off a bill ("扣除 … 后", "less"): a direction word only where the user pays it."""
    credit_objects: Phrases = field(init=False)
    """Words of money taken off a bill (优惠, 奖学金, discount): what a deduction word takes off is no charge."""
    capacity_fields: frozenset[str] = field(init=False)
    """Words of an option's field that counts what is left of it (seats, remaining, 余票): a party needs that many."""
    limit_fields: frozenset[str] = field(init=False)
    """Words of a field name that make it a limit (max, min, threshold)."""
    date_bounds: Phrases = field(init=False)
    """Words that make a date a range's bound (since, until, 以来)."""
    expectation_fields: frozenset[str] = field(init=False)
    """Words of a field name whose value is what is expected to happen (expected, eta, 预计): it states no status."""
    working_cues: Phrases = field(init=False)
    """Words right before an amount the answer works out itself (in total, left, 合计, 还剩)."""
    done_openers: Phrases = field(init=False)
    """Words that open an action the agent says it did for the user ("I've", 已为您): `StatusExtractor.done`."""
    done_words: Phrases = field(init=False)
    """Words that say an action went through, whoever did it ("taken care of", 挂好了, 提交成功)."""
    confirmed_words: frozenset[str] = field(init=False)
    """Status words that say a change was confirmed (confirmed, 已确认): a pending write's own status denies them."""
    done_read_verbs: Phrases = field(init=False)
    """Words after an opener that make it a look-up or a report, no action ("I've checked", 已为您查到)."""
    completion_concepts: frozenset[str] = field(init=False)
    """Concepts whose done status is the named record's own end (a refund arrived, a claim approved): the record's
    status still pending or failed contradicts it, unlike an act that makes or changes a record (created, updated)."""
    party_nouns: Phrases = field(init=False)
    """Words after a number that make it the size of the user's party (4 people, 3 passengers, 3 个人)."""
    available_words: Phrases = field(init=False)
    """Words that make a count one of the options that can be taken (available, bookable, 可以订, 有座)."""
    collection_words: dict[str, list[str]] = field(init=False)
    """A collection field (`orders`, `lines`) -> other words that name it (订单, phone numbers)."""
    member_words: dict[str, list[str]] = field(init=False)
    """List field (`passengers`) -> the words a count of its members uses (passengers, 乘客), lower case."""
    date_role_words: Phrases = field(init=False)
    """The words a claim says a date's role with (arriving, expires, 到期; lexicon `date_roles`)."""
    date_role_of: dict[str, str] = field(init=False)
    """Role word key -> the role (`arriving` -> `delivery`)."""
    date_role_fields: dict[str, list[str]] = field(init=False)
    """A role a date plays -> the words of the fields that hold it (`eta`, `estimated delivery`), lexicon words."""
    unit_dimension_of: dict[str, str] = field(init=False)
    """A word of a unit an amount may be per (night, room, 晚, 间; lexicon `unit_dimensions`), lower case -> the
    unit (`night`, `room`)."""
    unit_dimension_fields: dict[str, list[str]] = field(init=False)
    """A unit (`room`) -> the last words of the fields that count it (`rooms`), lexicon words."""
    unit_dimension_pairs: dict[str, Phrases] = field(init=False)
    """A unit (`segment`) -> words that say two of it (round trip, 往返)."""
    whole_count_cues: tuple[str, ...] = field(init=False)
    """Words before a count that make it the whole of a record's members (共有, in total)."""
    piece_units: frozenset[str] = field(init=False)
    """Units that count pieces, not lines (件, pcs): an order's items with quantities count by their quantities."""
    part_count_cues: tuple[str, ...] = field(init=False)
    """Words right before a count that make it a part of the record's whole (the first two nights, 其余 2 晚)."""
    partial_outcomes: Phrases = field(init=False)
    """Words that say a write went through in part (partial, 部分成功), as its status or in an answer."""
    generic_tool_words: frozenset[str] = field(init=False)
    """Words of tool names that name no thing a claim speaks of (request, create, details): the rest of a failed
    write's name (`redelivery` of `request_redelivery`) says which claimed action it attempted."""
    added_count_cues: tuple[str, ...] = field(init=False)
    """Words in a count's clause before it that make it members to be added (2 more drivers, 再加 2 名)."""
    direction_words: Phrases = field(init=False)
    """Words that say which way money moved (refund, credited, charge, 扣款)."""
    threshold_words: dict[str, tuple[str, ...]] = field(init=False)
    """Threshold words by comparison (`gt`, `ge`, `lt`, `le`): a count of the items that meet one is recomputed."""
    difference_words: dict[str, tuple[str, ...]] = field(init=False)
    """Comparative words by direction (`less`, `more`) that make the number before them a stated difference."""
    direction_of: dict[str, str] = field(init=False)
    """Direction word key -> `refund` or `charge`."""
    direction_fields: Phrases = field(init=False)
    """Fields whose value says which way a record's amount moved (`transaction_type`)."""
    direction_text_fields: Phrases = field(init=False)
    """Fields of free text about a record (`desc`) whose first word alone may say which way its amount moved."""
    charge_values: Phrases = field(init=False)
    """Values of such a field that mean money paid (`payment`), besides the charge words."""
    refund_values: Phrases = field(init=False)
    """Values of such a field that mean money paid back (`credit`)."""
    option_lists: frozenset[str] = field(init=False)
    """Names of lists and mappings of options a superlative ranks (flights, offers, variants, 航班)."""
    presenting: frozenset[str] = field(init=False)
    """Status-term keys that present results (here are, 以下是): they take no concept word after them."""
    comparison_markers: Phrases = field(init=False)
    """Words that compare with another record (than, compared with, 比, 相比): a value after one is that record's."""
    user_doers: Phrases = field(init=False)
    """Words right before an action word that make the user its doer (you paid, 您购买): no action of this turn."""
    speech_acts: dict[str, Phrases] = field(init=False)
    """The speech-act word lists (`offer_openers`, `policy_markers`, ...) by key."""
    category_values: Phrases = field(init=False)
    """The words of every category value (gold, 黄金, premium)."""
    category_of_value: dict[str, tuple[str, str]] = field(init=False)
    """Value word key -> (category, value): `黄金` -> (`tier`, `gold`)."""
    category_fields: dict[str, Phrases] = field(init=False)
    """Category -> the field words that name it (tier, level, 等级)."""
    category_links: Phrases = field(init=False)
    """Words that may join a field word to its value (is, 是, 为)."""
    category_owners: Phrases = field(init=False)
    """Words one of which stands just before a value said before its field word (you are a Gold member)."""
    generic_field_labels: frozenset[str] = field(init=False)
    """Field labels that name no particular thing (`amount`: cost, paid): a claim with only these is
    not contradicted by a field that names more (`refund_amount`)."""
    plain_amount_words: frozenset[str] = field(init=False)
    """Field words that name an amount and nothing of what it is (amount, 金额), as term keys: an amount said after
    one is any money field's of the record that states it."""
    not_money_labels: frozenset[str] = field(init=False)
    """Field labels of counts and measures (`count`, `days`): an amount of money never takes them."""
    money_labels: frozenset[str] = field(init=False)
    """Field labels of amounts of money (`refund`, `price`): a count or a measure never takes them."""
    duration_labels: frozenset[str] = field(init=False)
    """The field labels a duration keeps (`days`): 15 分钟 after 座位 is no count of guests."""
    member_measure_labels: frozenset[str] = field(init=False)
    """Field labels of counts and measures (`days`, `quantity`) that one member of a list holds for itself
    (a leave request's `days`): a number of them the answer gives is what it works out over the list (what is
    left, a total), never contradicted by one member's value alone."""
    label_companions: dict[str, frozenset[str]] = field(init=False)
    """Label -> other labels whose fields a number of it is also compared with (points with a balance)."""
    share_labels: frozenset[str] = field(init=False)
    """Field labels whose values a tool may give as a share of 1 (`score`: 0.83 said as 83)."""
    currency_codes: frozenset[str] = field(init=False)
    """The currency codes the lexicons' currency words stand for (`USD`, `CNY`, ...)."""
    unit_scales: dict[str, tuple[str, Decimal]] = field(init=False)
    """Unit word (lower case) -> (dimension, its size in the dimension's smallest unit): `gb` -> (`data`, 1048576)."""
    duration_seconds: dict[str, Decimal] = field(init=False)
    """Unit word of a short duration (lower case) -> seconds in one unit (`hours` -> 3600): `unit_scales`' time."""
    duration_compound_units: dict[str, Decimal] = field(init=False)
    """Unit word -> seconds, for words that are a duration only after another part of one (4 小时 28 分)."""
    duration_days: dict[str, Decimal] = field(init=False)
    """Unit word of a duration (lower case) -> days in one unit (`weeks` -> 7)."""
    read_only_tools: re.Pattern[str] = field(init=False)
    """Matches tool names that only read (`get_`, `query_`, `查询`): they never perform an action."""
    negation_window: dict[str, int] = field(init=False)
    """How far back a negator reaches: characters for `zh`, words for `en`."""
    path_cache: dict[str, tuple[frozenset[str], str | None, bool]] = field(init=False, default_factory=dict)
    """Labels and concept of each tool-output path shape seen so far (paths repeat across runs)."""
    tool_cache: dict[str, tuple[str, ...]] = field(init=False, default_factory=dict)
    """Concepts named by each tool name seen so far (the same tools run in every turn)."""
    shape_word_cache: dict[tuple[str, str, str], bool] = field(init=False, default_factory=dict)
    """Whether a tool-output path shape holds a word of a field label or a concept (shapes repeat across runs)."""
    time_zones: dict[str, tuple[float, ...]] = field(init=False)
    """Time-zone word -> its UTC offsets in hours (`Eastern` -> -4, -5)."""
    time_zone_words: Phrases = field(init=False)
    """The time-zone words, to find in a claim."""
    other_senses: dict[str, tuple[str, ...]] = field(init=False)
    """Word -> the other concepts it may speak of (发出: publish, send), tried in order when the run has
    no evidence of the word's own concept."""
    field_status_cache: dict[tuple[str, str | None], Any] = field(init=False, default_factory=dict)
    """Statuses each field shape's name states, per default concept (shapes repeat across runs)."""
    record_key_cache: dict[str, bool] = field(init=False, default_factory=dict)
    """Whether each field name seen so far names its record's key (field names repeat across runs)."""
    status_cache: dict[tuple[str, str | None], Any] = field(init=False, default_factory=dict)
    """Statuses read from each tool-output value and default concept (values repeat across items)."""

    def __post_init__(self) -> None:
        terms: dict[str, Term] = {}
        for concept, words in self.data["concepts"].items():
            for word in words:
                terms[term_key(word)] = Term(term_key(word), concept, None)
        for word, spec in self.data["status_terms"].items():
            terms[term_key(word)] = Term(
                term_key(word),
                spec.get("concept"),
                spec.get("polarity"),
                bool(spec.get("action", False)),
                bool(spec.get("evidence_only", False)),
                spec.get("field_polarity"),
            )
        self.terms = terms
        self.term_phrases = Phrases(terms)
        self.other_senses = {term_key(w): tuple(cs) for w, cs in self.data["other_senses"].items()}
        self.time_zones = {term_key(w): tuple(offsets) for w, offsets in self.data["time_zones"].items()}
        self.time_zone_words = Phrases(self.time_zones)
        self.status_words = frozenset(
            w for word, spec in self.data["status_terms"].items() if spec.get("polarity")
            for w in re.split(r"[\s_-]+", term_key(word)) if w
        )
        words: dict[str, set[str]] = {}
        for term in terms.values():
            if term.concept:
                words.setdefault(term.concept, set()).add(max(term.text.split(" "), key=len))
        self.concept_words = {c: _covering(ws) for c, ws in words.items()}
        self.negators = Phrases(self.data["negators"])
        self.hedges = Phrases(self.data["hedges"])
        self.hedge_exceptions = Phrases(self.data["hedge_exceptions"])
        self.hedges_after = Phrases(self.data["hedges_after"])
        self.completion = Phrases(self.data["completion_markers"])
        self.completion_far = Phrases(self.data["completion_markers_far"])
        self.agent_markers = tuple(self.data["agent_markers"])
        self.beneficiary_markers = tuple(self.data["beneficiary_markers"])
        self.place_markers = tuple(self.data["place_markers"])
        self.evidence_hedges = Phrases(self.data["evidence_hedges"])
        self.noun_heads = tuple(self.data["noun_heads"])
        self.standing_markers = Phrases(self.data["standing_markers"])
        self.conditional_openers = Phrases(self.data["conditional_openers"])
        self.past_hour_markers = Phrases(self.data["past_hour_markers"])
        self.earlier_markers = Phrases(self.data["earlier_markers"])
        self.rate_cues = Phrases(self.data["rate_cues"])
        self.approximators_after = Phrases(self.data["approximators_after"])
        self.minor_units = Phrases(self.data["minor_unit_fields"])
        self.field_of = {term_key(w): name for name, ws in self.data["fields"].items() for w in ws}
        self.field_phrases = Phrases(self.field_of)
        self.field_after_of = {term_key(w): name for name, ws in self.data["fields_after"].items() for w in ws}
        self.fields_after = Phrases(self.field_after_of)
        self.field_words = {
            name: _covering(max(term_key(w).split(" "), key=len) for w in ws if term_key(w))
            for name, ws in self.data["fields"].items()
        }
        self.action_tools = {k: tuple(v) for k, v in self.data["action_tools"].items()}
        self.payment_method_of = {
            term_key(w): category for category, ws in self.data["payment_methods"].items() for w in ws
        }
        self.payment_methods = Phrases(self.payment_method_of)
        self.payment_method_cues = Phrases(self.data["payment_method_cues"])
        self.payment_method_cues_after = Phrases(self.data["payment_method_cues_after"])
        self.payment_method_fields = Phrases(self.data["payment_method_fields"])
        categories = self.data.get("categories", {})
        self.category_of_value = {
            term_key(w): (name, value)
            for name, category in categories.items() for value, words in category["values"].items() for w in words
        }
        self.category_values = Phrases(self.category_of_value)
        self.category_fields = {name: Phrases(category["fields"]) for name, category in categories.items()}
        self.category_links = Phrases(self.data["categories_links"])
        self.category_owners = Phrases(self.data["categories_owners"])
        self.name_stopwords = frozenset(self.data["name_stopwords"])
        self.other_record_words = Phrases(self.data["other_record_words"])
        self.record_pronouns = Phrases(self.data["record_pronouns"])
        self.suffix_cues = Phrases(self.data["suffix_cues"])
        self.generic_concepts = frozenset(self.data["generic_concepts"])
        self.status_fields = Phrases(self.data["status_fields"])
        self.advice_markers = Phrases(self.data["advice_markers"])
        self.speech_acts = {key: Phrases(self.data[key]) for key in SPEECH_ACT_KEYS}
        self.user_doers = Phrases(self.data["user_doers"])
        self.comparison_markers = Phrases(self.data["comparison_markers"])
        self.presenting = frozenset(term_key(w) for w in self.data["presenting_terms"])
        self.user_beneficiaries = Phrases(self.data["user_beneficiaries"])
        self.derivation_cues = Phrases(self.data["derivation_cues"])
        self.per_unit_words = Phrases(self.data["per_unit_words"])
        self.total_words = Phrases(self.data["fields"].get("total", []))
        self.multiplicity_fields = frozenset(w.lower() for w in self.data["multiplicity_fields"])
        self.quantity_fields = frozenset(term_key(w) for w in self.data["fields"].get("quantity", []))
        self.superlatives = Phrases(self.data["superlatives_low"] + self.data["superlatives_high"])
        self.superlatives_low = frozenset(term_key(w) for w in self.data["superlatives_low"])
        self.superlatives_early = Phrases(self.data.get("superlatives_early", []))
        self.superlatives_fast = Phrases(self.data.get("superlatives_fast", []))
        self.superlative_qualifiers = Phrases(self.data.get("superlative_qualifiers", []))
        self.deadline_words = Phrases(self.data.get("deadline_words", []))
        self.all_in_cues = tuple(w.lower() for w in self.data.get("all_in_cues", ()))
        self.fee_fields = tuple(term_key(w) for w in self.data.get("fee_fields", ()))
        self.deadline_cues = Phrases(self.data.get("deadline_cues", []))
        self.weekly_cues = Phrases(self.data.get("weekly_cues", []))
        self.business_day_cues = Phrases(self.data.get("business_day_cues", []))
        self.relative_days = Phrases(self.data.get("relative_days", []))
        self.record_names = frozenset(field_name(f) for f in self.data.get("record_name_fields", []))
        self.seat_fields = frozenset(field_name(f) for f in self.data.get("seat_fields", []))
        self.record_labels = frozenset(field_name(f) for f in self.data.get("record_label_fields", []))
        self.flag_words = {term_key(k): tuple(w.lower() for w in ws)
                           for k, ws in self.data.get("flag_words", {}).items()}
        self.day_parts = {term_key(k): (float(a), float(b)) for k, (a, b) in self.data.get("day_parts", {}).items()}
        self.day_part_words = Phrases(self.day_parts)
        self.weekday_words = Phrases(self.data["weekdays"])
        self.weekday_of = {term_key(w): day for w, day in self.data["weekdays"].items()}
        self.option_lists = frozenset(w.lower() for w in self.data["option_lists"])
        self.selection_scopes = Phrases(self.data["selection_scopes"])
        self.new_value_cues = Phrases(self.data["new_value_cues"])
        states = self.data["record_states"]
        self.record_state_of = {term_key(w): state for state, spec in states.items() for w in spec["words"]}
        self.record_state_words = Phrases(self.record_state_of)
        self.record_state_implies = {state: tuple(spec.get("implies", ())) for state, spec in states.items()}
        self.outcome_state_of = {term_key(w): state for state, words in self.data.get("outcome_states", {}).items()
                                 for w in words}
        self.outcome_state_words = Phrases(self.outcome_state_of)
        self.available_words = Phrases(self.data["available_words"])
        self.unbookable_states = Phrases(self.data["unbookable_states"])
        self.deduction_words = Phrases(self.data["deduction_words"])
        self.credit_objects = Phrases(self.data["credit_objects"])
        self.capacity_fields = frozenset(term_key(w) for w in self.data["capacity_fields"])
        self.limit_fields = frozenset(term_key(w) for w in self.data["limit_fields"])
        self.date_bounds = Phrases(self.data["date_bounds"])
        self.expectation_fields = frozenset(term_key(w) for w in self.data["expectation_fields"])
        self.completion_concepts = frozenset(self.data["completion_concepts"])
        self.working_cues = Phrases(self.data["working_cues"])
        self.done_openers = Phrases(self.data["done_openers"])
        self.done_words = Phrases(self.data["done_words"])
        self.done_read_verbs = Phrases(self.data["done_read_verbs"])
        self.confirmed_words = frozenset(map(term_key, self.data["confirmed_words"]))
        self.party_nouns = Phrases(self.data["party_nouns"])
        self.collection_words = {k.lower(): list(v) for k, v in self.data["collection_words"].items()}
        self.member_words = {k.lower(): [term_key(w) for w in v] for k, v in self.data.get("member_words", {}).items()}
        self.date_role_of = {term_key(w): role.lower() for role, words in self.data.get("date_roles", {}).items()
                             for w in words}
        self.date_role_words = Phrases(self.date_role_of)
        self.date_role_fields = {k.lower(): [term_key(w) for w in v]
                                 for k, v in self.data.get("date_role_fields", {}).items()}
        dimensions = self.data.get("unit_dimensions", {})
        self.unit_dimension_of = {w.lower(): unit.lower() for unit, words in dimensions.items() for w in words}
        self.unit_dimension_fields = {k.lower(): [term_key(w) for w in v]
                                      for k, v in self.data.get("unit_dimension_fields", {}).items()}
        self.unit_dimension_pairs = {k.lower(): Phrases(v)
                                     for k, v in self.data.get("unit_dimension_pairs", {}).items()}
        self.whole_count_cues = tuple(term_key(w) for w in self.data.get("whole_count_cues", ()))
        self.piece_units = frozenset(w.lower() for w in self.data.get("piece_units", ()))
        self.generic_tool_words = frozenset(w.lower() for w in self.data.get("generic_tool_words", ()))
        self.partial_outcomes = Phrases(self.data.get("partial_outcomes", ()))
        self.part_count_cues = tuple(w.lower() for w in self.data.get("part_count_cues", ()))
        self.added_count_cues = tuple(term_key(w) for w in self.data.get("added_count_cues", ()))
        self.difference_words = {way: tuple(words) for way, words in self.data["difference_words"].items()}
        self.threshold_words = {way: tuple(words) for way, words in self.data["threshold_words"].items()}
        self.direction_of = {term_key(w): way for way, words in self.data["directions"].items() for w in words}
        self.direction_words = Phrases(self.direction_of)
        self.direction_fields = Phrases(self.data["direction_fields"])
        self.direction_text_fields = Phrases(self.data["direction_text_fields"])
        self.charge_values = Phrases(self.data["charge_values"])
        self.refund_values = Phrases(self.data["refund_values"])
        self.record_state_concepts = frozenset(c if c != "none" else None for c in self.data["record_state_concepts"])
        self.generic_currency_words = frozenset(self.data["generic_currency_words"])
        self.all_words = Phrases(self.data["all_words"])
        self.approximators = Phrases(self.data["approximators"])
        self.status_implies = {
            tuple(src.split(":", 1)): [tuple(dst.split(":", 1)) for dst in dsts]
            for src, dsts in self.data["status_implies"].items()
        }
        self.generic_field_labels = frozenset(self.data["generic_field_labels"])
        self.plain_amount_words = frozenset(term_key(w) for w in self.data.get("plain_amount_words", ()))
        self.not_money_labels = frozenset(self.data["not_money_labels"])
        self.money_labels = frozenset(self.data["money_labels"])
        self.duration_labels = frozenset(self.data["duration_labels"])
        self.member_measure_labels = frozenset(self.data["member_measure_labels"])
        self.share_labels = frozenset(self.data["share_labels"])
        self.label_companions = {label: frozenset(more) for label, more in self.data["label_companions"].items()}
        currencies = self.data["currencies"]
        self.currency_codes = frozenset(currencies.values()) | {
            code for codes in self.data["currency_symbols"].values() for code in codes
        }
        self.duration_days = {k.lower(): _days(k, v) for k, v in self.data["duration_days"].items()}
        self.unit_scales = {
            unit.lower(): (dimension, Decimal(str(size)))
            for dimension, units in self.data["unit_scales"].items() for unit, size in units.items()
        }
        self.duration_seconds = {
            unit: size for unit, (dimension, size) in self.unit_scales.items() if dimension == _TIME_DIMENSION
        }
        self.duration_compound_units = {
            k.lower(): _days(k, v, "duration_compound_units") for k, v in self.data["duration_compound_units"].items()
        }
        self.negation_window = {k: int(v) for k, v in self.data["negation_window"].items()}
        prefixes = "|".join(re.escape(p) for p in sorted(self.data["read_only_tool_prefixes"], key=len, reverse=True))
        # the prefix in any case; a camelCase boundary only before a real capital (checkout is no check)
        self.read_only_tools = re.compile(rf"(?i:{prefixes})(?:[_\-.\s]|(?=[A-Z])|$)")

    def term_hits(self, text: str, pos: int = 0, endpos: int | None = None) -> list[tuple[Hit, Term]]:
        """Status terms and concept words in `text[pos:endpos]`, in order."""
        return [(hit, self.terms[hit.key]) for hit in self.term_phrases.finditer(text, pos, endpos)]

    def directions_in(self, text: str) -> set[str]:
        """The ways money moved that `text` names (`refund`, `charge`)."""
        return {self.direction_of[hit.key] for hit in self.direction_words.finditer(text)}

    @staticmethod
    def cue_in(cues: Iterable[str], text: str) -> bool:
        """Whether any of the cues (lower case, as the lexicon holds them) stands in `text`: a whole word or phrase
        in English, anywhere in Chinese (`whole_count_cues` in "共有 3 位", "a total of 4")."""
        return any(re.search(rf"\b{re.escape(cue)}\b", text) if cue.isascii() else cue in text for cue in cues)

    def record_states_in(self, text: str) -> set[str]:
        """The record states `text` names ("pending (item modified)" -> pending)."""
        return {self.record_state_of[hit.key] for hit in self.record_state_words.finditer(text)}

    def outcome_states_in(self, text: str) -> set[str]:
        """The outcomes `text` names ("SUCCESS", 发放失败)."""
        return {self.outcome_state_of[hit.key] for hit in self.outcome_state_words.finditer(text)}

    def says_unbookable(self, text: str, values: Iterable[str] = ()) -> bool:
        """Whether a claim says an option cannot be had (sold out, 已满, "it's full"); the option's own values it
        names ("full size" of `size: full size`) are descriptions, no state."""
        low = text.lower()
        for value in (v.lower() for v in values):
            if len(value) > 1:
                low = low.replace(value, " " * len(value))
        return self.unbookable_states.search(low)

    def says_record_state(self, key: str, value: str) -> bool:
        """Whether a field of this name holding this value says a record's state now: a status field
        (`status`, `order_status`) with no word of a value asked for (`new_status`), holding one state."""
        name = field_name(key)
        words = name.split()
        if not words or self.status_fields.lookup(words[-1]) is None or self.new_value_cues.search(name):
            return False
        return len(self.record_states_in(value.lower())) == 1

    def concepts_in(self, text: str) -> list[str]:
        """Concepts named in `text` (a tool name or a field path), in order."""
        return [t.concept for _, t in self.term_hits(text) if t.concept]

    def unit_field(self, unit: str | None) -> str | None:
        """The field label a unit names (`积分`: points, `days`), or None."""
        key = self.field_phrases.lookup(term_key(unit)) if unit else None
        return self.field_of[key] if key is not None else None

    def fields_in(self, text: str, pos: int = 0, endpos: int | None = None) -> list[str]:
        """Field labels named in `text[pos:endpos]`, in order."""
        return [self.field_of[h.key] for h in self.field_phrases.finditer(text, pos, endpos)]

    def currency_of(self, text: str) -> str | None:
        """The currency code a word or code names (`usd`, `美元`, `CNY`); None for anything else."""
        text = text.strip()
        code = self.data["currencies"].get(text.lower())
        if code is None and text.upper() in self.currency_codes:
            code = text.upper()
        return code

    def hedged(self, text: str, start: int, end: int) -> bool:
        """Whether a hedge stands in `text[start:end]`, not inside a word that only holds one (申请)."""
        if not self.hedges.search(text, start, end):
            return False
        hits = None
        if "May" in text[start:end]:  # the month before a day is no hedge ("(May 22–25) is now cancelled")
            hits = [h for h in self.hedges.finditer(text, start, end) if not _MONTH_MAY.match(text, h.start)]
            if not hits:
                return False
        words = self.hedge_exceptions.finditer(text, max(0, start - 2), min(len(text), end + 2))
        if not words:
            return True
        spans = [(w.start, w.end) for w in words]
        return any(not h.overlaps(spans) for h in (hits or self.hedges.finditer(text, start, end)))

    def is_record_key(self, field: str) -> bool:
        """Whether a field name (lexicon words) names its record's key: `order id`, `flight no`, `订单编号`."""
        words = field.split()
        return bool(words) and any(
            words[-1] == key or words[-1].endswith(key) and not key.isascii() for key in self.data["record_key_fields"]
        )

    def superlative_of(self, hit: Hit) -> bool:
        """Whether a superlative found by `superlatives` selects the lowest amount (cheapest) or the highest."""
        return hit.key in self.superlatives_low

    def list(self, key: str) -> list[Any]:
        """A merged list entry (e.g. `count_nouns`)."""
        return self.data[key]

    def map(self, key: str) -> dict[str, Any]:
        """A merged mapping entry (e.g. `currencies`)."""
        return self.data[key]


CACHE_LIMIT = 50_000
"""Entries a per-lexicon cache (paths, tool names, statuses of values) holds before it is emptied."""


def remember(cache: dict[Any, T], key: Any, value: T) -> T:
    """Store a value in a per-lexicon cache, emptied when full (it lives as long as the checker)."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _days(unit: str, value: Any, key: str = "duration_days") -> Decimal:
    """A `duration_days` (or `duration_compound_units`) entry as a positive number; a clear error for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        what = "days" if key == "duration_days" else "seconds"
        raise ValueError(f"lexicon {key}[{unit!r}] must be a positive number of {what}, not {value!r}")
    return Decimal(str(value))


def _covering(words: Iterable[str]) -> tuple[str, ...]:
    """The words not containing another of `words`: a text holding any word holds one of these."""
    unique = sorted(set(words), key=len)
    kept: list[str] = []
    for word in unique:
        if not any(k in word for k in kept):
            kept.append(word)
    return tuple(sorted(kept))


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key in _MERGED_DICTS:
        target = into.setdefault(key, {})
        for name, value in extra.get(key, {}).items():
            if isinstance(value, list) and isinstance(target.get(name), list):
                target[name] = target[name] + [v for v in value if v not in target[name]]
            elif key == "unit_scales" and isinstance(target.get(name), dict):
                target[name] = {**target[name], **value}  # a dimension's units: merged unit by unit
            elif key == "record_states" and isinstance(target.get(name), dict):
                # a state's words and the states it implies, merged word by word across languages
                target[name] = {part: [*target[name].get(part, []),
                                       *(w for w in value.get(part, []) if w not in target[name].get(part, []))]
                                for part in ("words", "implies")}
            else:
                target[name] = value
    for key in _MERGED_LISTS:
        if key in extra:
            seen = into.setdefault(key, [])
            seen.extend(w for w in extra[key] if w not in seen)
    for name, extra_category in extra.get("categories", {}).items():
        # a category's field words and each value's words are lists: they are merged word by word
        category = into.setdefault("categories", {}).setdefault(name, {"fields": [], "values": {}})
        category["fields"] += [w for w in extra_category.get("fields", []) if w not in category["fields"]]
        for value, words in extra_category.get("values", {}).items():
            known = category["values"].setdefault(value, [])
            known += [w for w in words if w not in known]


_WORD_LIST_MAPS = (
    "concepts", "action_tools", "fields", "payment_methods", "currency_symbols", "status_implies", "other_senses",
    "label_companions", "difference_words", "threshold_words", "member_words", "date_roles",
    "date_role_fields", "outcome_states", "flag_words", "unit_dimensions", "unit_dimension_fields",
    "unit_dimension_pairs",
)
"""Keys whose entries are lists of words (`concepts`: concept -> words)."""
_NUMBER_MAPS = (
    "number_words", "numerals", "numeral_units", "months", "negation_window", "weekdays", "duration_days",
    "duration_compound_units",
)
"""Keys whose entries are numbers (`months`: word -> month)."""
_POLARITIES = (None, "positive", "negative", "pending")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice (the later silently winning) is an error."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} is given twice in one object")
        seen[key] = value
    return seen


def _check_lexicon_file(data: Any, where: str) -> None:
    """Raise ValueError naming the first entry of a lexicon file that has the wrong shape."""
    if not isinstance(data, dict):
        raise ValueError(f"lexicon file {where} must hold a JSON object")
    known = {*_MERGED_DICTS, *_MERGED_LISTS, "categories"}
    for key, value in data.items():
        if key.startswith("_"):
            continue  # comments (`_doc`)
        problem = None
        if key not in known:
            problem = " is not a lexicon key"
        elif key in _MERGED_LISTS:
            problem = None if _words(value) else " must be a list of words"
        elif not isinstance(value, dict):
            problem = " must be an object"
        elif key in _WORD_LIST_MAPS:
            problem = _first_bad(value, _words, "must be a list of words")
        elif key in _NUMBER_MAPS:
            problem = _first_bad(value, _is_number, "must be a number")
        elif key == "currencies":
            problem = _first_bad(value, lambda v: isinstance(v, str), "must be a currency code")
        elif key == "day_parts":
            problem = _first_bad(value, lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_number, v)),
                                 "must be [from hour, to hour]")
        elif key == "status_terms":
            must = f"must be an object with a polarity of {_POLARITIES[1:]} or null"
            problem = _first_bad(value, _is_status_spec, must)
        elif key == "unit_scales":
            problem = _first_bad(value, _is_scale_table, "must be an object of positive numbers")
        elif key == "time_zones":
            problem = _first_bad(value, _is_offsets, "must be a list of UTC offsets in hours, -12 to 14")
        elif key == "categories":
            must = "must be an object with a list `fields` and an object `values` of lists"
            problem = _first_bad(value, _is_category, must)
        if problem:
            raise ValueError(f"lexicon file {where}: {key}{problem}")


def _first_bad(entries: dict[str, Any], ok: Callable[[Any], bool], must: str) -> str | None:
    return next((f"[{name!r}] {must}" for name, value in entries.items() if not ok(value)), None)


def _words(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(w, str) for w in value)


def _is_offsets(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_number(v) and -12 <= v <= 14 for v in value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_status_spec(spec: Any) -> bool:
    return (
        isinstance(spec, dict)
        and spec.get("polarity") in _POLARITIES
        and spec.get("field_polarity") in _POLARITIES
        and isinstance(spec.get("concept"), (str, type(None)))
    )


def _is_scale_table(units: Any) -> bool:
    return isinstance(units, dict) and all(_is_number(v) and v > 0 for v in units.values())


def _is_category(category: Any) -> bool:
    return (
        isinstance(category, dict)
        and _words(category.get("fields", []))
        and isinstance(category.get("values", {}), dict)
        and all(_words(words) for words in category.get("values", {}).values())
    )


def load_lexicon(extra_paths: Iterable[Path | str] = ()) -> Lexicon:
    """Load the shipped zh and en lexicons and merge user files over them.

    Args:
        extra_paths: JSON files with any of the shipped keys; their entries are
            added to (and for mappings, override) the shipped ones.

    Returns:
        The merged, compiled lexicon.

    Raises:
        ValueError: when a user file is not valid JSON, not an object, gives a key twice
            in one object, or has an unknown key or an entry of the wrong shape (named in
            the message).
    """
    data: dict[str, Any] = {}
    for lang in SHIPPED:
        text = resources.files("factcheck.data").joinpath(f"{lang}.json").read_text("utf-8")
        shipped = json.loads(text, object_pairs_hook=_no_duplicate_keys)
        _check_lexicon_file(shipped, f"{lang}.json")
        _merge(data, shipped)
    for path in extra_paths:
        try:
            extra = json.loads(Path(path).read_text("utf-8"), object_pairs_hook=_no_duplicate_keys)
        except (OSError, ValueError) as exc:  # JSONDecodeError is a ValueError, as is a key given twice
            raise ValueError(f"cannot read lexicon file {path}: {exc}") from exc
        _check_lexicon_file(extra, str(path))
        _merge(data, extra)
    return Lexicon(data)
