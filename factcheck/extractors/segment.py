"""Sentence segmentation with spaCy blank pipelines, routed by script."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_CJK_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_RUN = re.compile(r"[A-Za-z]+")
_LINK = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+", re.IGNORECASE)
# Hard sentence ends: CJK and Latin terminators (a run), then closing quotes/brackets.
# An ASCII "!" or "?" right before a letter, digit or symbol is inside a token ("aB3#fG7!kL9@", "a?b=c"); an
# ellipsis right before a digit masks a number's start ("line …0171").
_HARD_END = re.compile(r"(?:[。！？]|…(?!\d)|[!?](?![\[A-Za-z0-9#@$%&*_=]))+[”’\"'）)」』】]*|\n+")
_HARD_END_START = re.compile(r"[。！？?…!\n]")  # where a hard end can start
# A full stop ends a sentence only before white space, CJK text or the end.
_DOT_END = re.compile(r"\.+[”’\"'）)」』】]*(?=\s|$|[\u3400-\u9fff])")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_LIST_MARKER = re.compile(r"(?:^|\n)\s*\d{1,2}$")
_SPACES = re.compile(r"\s*")
# A hard sentence end with more text right after it (but not `![`, a markdown image): a sentence
# bound may fall inside a word. It opens with a character class, which the regex engine skips to.
_INNER_END = re.compile(r"[。！？?…!](?=\S)(?!(?<=!)\[)(?!(?<=…)\d)")
# Just after a mark a sentence bound can follow: an end mark, a full stop or a closing quote/bracket.
_AFTER_MARK = re.compile(r"(?<=[。！？?…!.”’\"'）)」』】])")

def detect_lang(text: str) -> str:
    """Guess the answer's language from its script: `zh`, `en` or `mixed`."""
    cjk = len(_CJK.findall(text))
    if not cjk:
        return "en"
    latin = sum(len(w) for w in _LATIN_WORD.findall(text))
    ratio = cjk / (cjk + latin / 2)
    return "zh" if ratio >= 0.8 else "mixed"


def mostly_zh_or_en(text: str) -> str:
    """`zh` or `en` for text in both scripts (for messages about a `mixed` answer).

    `zh` when, links and e-mails aside, it has at least as many CJK characters as Latin words.
    """
    text = _LINK.sub(" ", text)
    cjk = len(_CJK_HAN.findall(text))
    return "zh" if cjk and cjk >= len(_LATIN_RUN.findall(text)) else "en"


def sentence_bounds(text: str, abbreviations: frozenset[str]) -> list[int]:
    """Character offsets where a new sentence starts (rule based, script aware).

    Splits after `。！？!?…` and newlines anywhere, and after `.` only before
    white space, CJK text or the end, and not after an abbreviation (`Mr.`,
    `Dec.`), a decimal point or a list marker (`1.`).
    """
    # a sentence starts after the end and the white space after it, if anything follows
    bounds = set()
    first = _HARD_END_START.search(text)  # the regex tries every position: start where it can match
    for m in _HARD_END.finditer(text, first.start()) if first else ():
        bounds.add(_SPACES.match(text, m.end()).end())
    for m in _DOT_END.finditer(text):
        bound = _SPACES.match(text, m.end()).end()
        if bound == len(text) or bound in bounds:
            continue
        before = text[max(0, m.start() - 12) : m.start()]
        word = _WORD_BEFORE.search(before)
        if word and word.group(1).lower().rstrip(".") in abbreviations:
            continue
        if _LIST_MARKER.search(text[max(0, m.start() - 6) : m.start()]):
            continue
        bounds.add(bound)
    bounds.discard(len(text))
    return sorted(bounds)


TEXT_KEY = "factcheck_text"
"""`Doc.user_data` key holding the text the doc was made from."""


class SentenceSetter:
    """Pipeline component setting sentence starts from `sentence_bounds`."""

    def __init__(self, abbreviations: list[str], after_parser: bool = False) -> None:
        self.abbreviations = frozenset(a.lower().rstrip(".") for a in abbreviations)
        self.after_parser = after_parser
        """The pipeline has a parser or senter before us (checking each doc for it costs a pass)."""

    def __call__(self, doc: Doc) -> Doc:
        if self.after_parser and (doc.has_annotation("DEP") or doc.has_annotation("SENT_START")):
            return doc  # a trained parser or senter already set the sentences
        if not len(doc):
            return doc
        # only the starts are set; spaCy reads an unset token as inside the sentence
        doc[0].is_sent_start = True
        # the caller's text, when given, saves rebuilding doc.text from the tokens
        bounds = sentence_bounds(doc.user_data.get(TEXT_KEY) or doc.text, self.abbreviations)
        marked = False
        if bounds:
            offsets = doc.to_array("IDX").tolist()  # token start offsets, without making Token objects
            for bound in bounds:
                i = bisect_left(offsets, bound)
                if i < len(offsets) and offsets[i] == bound:
                    doc[i].is_sent_start = marked = True
        if not marked and len(doc) > 1 and doc[1].is_sent_start is None:
            doc[1].is_sent_start = False  # one explicit mark tells spaCy the doc is segmented
        return doc


@Language.factory("factcheck_sentences", default_config={"abbreviations": []})
def make_sentence_setter(nlp: Language, name: str, abbreviations: list[str]) -> SentenceSetter:
    """spaCy factory for `SentenceSetter` (rule-based, works on blank pipelines)."""
    return SentenceSetter(abbreviations, any(p in nlp.pipe_names for p in ("parser", "senter")))


class SentenceTokenizer:
    """Tokenizer of the blank pipelines, whose only task is finding sentences.

    `SentenceSetter` marks a bound only where a token starts, so only token starts
    at bounds matter. spaCy's tokenizers start one after every white space, so most
    texts need nothing more: `fast` is a spaCy `Tokenizer` without rules (for `zh`,
    with an empty infix after each sentence mark). When a hard end stands inside a
    word (`Done!Next`, `https://x.com/a?b=c`), the text goes to `rules`, the
    language's own tokenizer, which decides as before.
    """

    def __init__(self, fast: Tokenizer, rules: Callable[[str], Doc] | None = None) -> None:
        self.fast = fast
        self.rules = rules
        """None when `fast` already starts a token at every possible bound."""

    def __call__(self, text: str) -> Doc:
        text = str(text)  # spaCy's Tokenizer takes an exact `str`, not a subclass such as LangChain's TextAccessor
        if self.rules is not None and _INNER_END.search(text):
            return self.rules(text)
        return self.fast(text)


@spacy.registry.tokenizers("factcheck.SentenceTokenizer.v1")
def create_sentence_tokenizer(per_character: bool = False) -> Callable[[Language], SentenceTokenizer]:
    """Registered factory of `SentenceTokenizer` for a blank pipeline.

    Args:
        per_character: The language's tokenizer makes a token of every character
            (blank `zh`): then every bound starts a token, and cutting words after
            each sentence mark (an empty infix) gives the same bounds.
    """

    def make(nlp: Language) -> SentenceTokenizer:
        if per_character:
            return SentenceTokenizer(Tokenizer(nlp.vocab, infix_finditer=_AFTER_MARK.finditer))
        rules = spacy.registry.tokenizers.get("spacy.Tokenizer.v1")()(nlp)
        return SentenceTokenizer(Tokenizer(nlp.vocab), rules)

    return make


MAX_VOCAB_STRINGS = 200_000
"""Strings a blank pipeline's vocab may hold before it is rebuilt, bounding memory in long-lived processes."""


@lru_cache(maxsize=8)
def blank_pipeline(lang: str, abbreviations: tuple[str, ...] = ()) -> Language:
    """A blank spaCy pipeline for `zh` or `en`, with our tokenizer and sentencizer.

    The sentences are those of the blank pipeline's own tokenizer (per-character
    tokens for `zh`, spaCy's rules for `en`); see `SentenceTokenizer`.
    """
    tokenizer = {"@tokenizers": "factcheck.SentenceTokenizer.v1", "per_character": lang == "zh"}
    nlp = spacy.blank("zh" if lang == "zh" else "en", config={"nlp": {"tokenizer": tokenizer}})
    nlp.add_pipe("factcheck_sentences", config={"abbreviations": list(abbreviations)})
    # nothing reads lexeme attributes (shape, like_url, ...): don't compute them for each new word
    nlp.vocab.lex_attr_getters = {}
    return nlp


class Segmenter:
    """Split text into sentences; CJK text goes to the zh pipeline, the rest to en."""

    def __init__(self, abbreviations: list[str], nlp: Language | None = None) -> None:
        self._abbr = tuple(sorted(abbreviations))
        self._abbr_keys = frozenset(a.lower().rstrip(".") for a in self._abbr)
        """The abbreviations as `sentence_bounds` takes them (as `SentenceSetter` keeps them)."""
        self._user_nlp = nlp
        self._blank_components: dict[str, tuple[Language, list[Callable[[Doc], Doc]]]] = {}
        """Per language: our blank pipeline and its components (`Language.pipeline` builds a new list per call),
        held until its vocab grows too large."""
        if nlp is not None and "factcheck_sentences" not in nlp.pipe_names:
            # with a trained parser its sentences are used as they are (see SentenceSetter)
            nlp.add_pipe("factcheck_sentences", last=True, config={"abbreviations": list(self._abbr)})

    def sentences(self, text: str) -> list[tuple[int, int]]:
        """Return (start, end) of each sentence, trimmed of surrounding white space."""
        if not text.strip():
            return []
        if self._user_nlp is not None:
            nlp = self._user_nlp
            components = [component for _, component in nlp.pipeline]  # the user may change it between calls
        else:
            lang = "zh" if _CJK.search(text) else "en"
            if lang == "zh" or not _INNER_END.search(text):
                # the blank pipeline's fast tokenizer starts a token at every bound (`SentenceTokenizer`),
                # so `SentenceSetter` would mark each: the bounds are the sentences, without making a doc
                return _trimmed(text, [0, *sentence_bounds(text, self._abbr_keys)])
            # the pipeline this segmenter holds (the look-up in `blank_pipeline`'s cache hashes every abbreviation)
            cached = self._blank_components.get(lang)
            nlp = blank_pipeline(lang, self._abbr) if cached is None else cached[0]
            if len(nlp.vocab.strings) > MAX_VOCAB_STRINGS:
                # spaCy keeps every new word (order numbers, links) for good: start a fresh pipeline
                blank_pipeline.cache_clear()
                nlp = blank_pipeline(lang, self._abbr)
            if cached is None or cached[0] is not nlp:
                cached = self._blank_components[lang] = (nlp, [component for _, component in nlp.pipeline])
            components = cached[1]
        doc = nlp.make_doc(text)
        doc.user_data[TEXT_KEY] = text
        for component in components:
            doc = component(doc)
        # read the sentence starts as an array: no Token or Span objects on the hot path
        rows = doc.to_array(["IDX", "SENT_START"]).tolist()
        return _trimmed(text, [offset for i, (offset, flag) in enumerate(rows) if flag == 1 or i == 0])


def _trimmed(text: str, firsts: list[int]) -> list[tuple[int, int]]:
    """(start, end) of the sentences starting at `firsts` (sorted, the first 0), trimmed of white space."""
    spans = []
    for start, end in zip(firsts, firsts[1:] + [len(text)], strict=True):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            spans.append((start, end))
    return spans
