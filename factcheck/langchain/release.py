"""`SentenceReleaser`: let streamed answer text through one checked sentence at a time."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from langchain_core.callbacks import (
    AsyncCallbackManager,
    AsyncCallbackManagerForLLMRun,
    CallbackManager,
    CallbackManagerForLLMRun,
)
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, LLMResult

from factcheck.errors import CheckerFailure
from factcheck.langchain.extract import message_text
from factcheck.report import Report

StreamRelease = Literal["sentence", "final"]
"""When streamed answer text reaches the consumer.

- `sentence`: each claim once it is complete and grounded in the evidence the run holds.
- `final`: all of it at the end, after the whole answer is checked (and retried).
"""

RELEASE_RUN_NAME = "fact_check_release"
"""Name of the chat-model run whose tokens are the released (checked) answer text."""

RETRY_SEPARATOR = "\n\n"
"""Put between verified text already shown and a retried answer that does not start with it."""

# A mark after which a claim may have ended, and the first character of what follows it:
# the checker, not this pattern, decides where claims are; this only says when to ask it.
_NEXT_START = re.compile(r"[。！？!?…；;.\n][”’\"'）)」』】]*\s*(?=\S)")


class SentenceReleaser:
    """Hold the text of one streamed answer and release the part the checker has cleared.

    Feed it the answer's text as it streams. When new text may complete a sentence it
    checks the whole text so far: every claim but the last (which may still grow) is
    released when no claim up to it is flagged, not even below the confidence
    threshold. A flagged claim, or a failure of the checker, holds back everything after
    it; the rest is decided by `finish` once the whole answer is checked.

    Text shown during an earlier attempt (`shown`) is never shown twice: a retried
    answer that starts with it continues it, one that does not is put after
    `RETRY_SEPARATOR`.
    """

    def __init__(
        self,
        check: Callable[[str], Report],
        release: StreamRelease = "sentence",
        shown: str = "",
    ) -> None:
        """Start an empty answer.

        Args:
            check: Checks a text against the evidence the run holds now.
            release: `sentence` or `final` (see `StreamRelease`).
            shown: Verified text of this answer slot the consumer already has.
        """
        self.check = check
        """Checks a text against the evidence the run holds now."""
        self.release = release
        """`sentence` or `final`."""
        self.text = ""
        """All answer text fed so far."""
        self.cleared = 0
        """Length of the prefix of `text` the checker cleared."""
        self.blocked = False
        """True once a flagged claim was found: nothing more is released before `finish`."""
        self.shown = shown
        """What the consumer already has of this answer slot (all attempts)."""
        self._offset = 0
        self._checked_upto = 0

    def feed(self, text: str) -> str:
        """Add streamed text; return the newly released text (often empty)."""
        start = len(self.text)
        self.text += text
        if self.release != "sentence" or self.blocked or not text:
            return ""
        # ask the checker once per new sentence start: the claim before it is then complete
        starts = [m.end() for m in _NEXT_START.finditer(self.text, max(0, start - 16))]
        if not starts or starts[-1] <= self._checked_upto:
            return ""
        self._checked_upto = starts[-1]
        try:
            report = self.check(self.text)
        except CheckerFailure:  # nothing more until the whole answer's check (and `fail_open`) decides
            self.blocked = True
            return ""
        claims = report.claims
        if len(claims) < 2:
            return ""
        # every claim but the last, which may still grow; up to its end, not the space after
        done = claims[:-1]
        # a flag below the confidence threshold may rise above it once more text is in
        flagged = [c for c in claims[:-1] if c.flagged or c.uncertain]
        if flagged:
            self.blocked = True
            done = [c for c in done if c.end <= flagged[0].start]
        end = max((c.end for c in done), default=0)
        if end <= self.cleared:
            return ""
        self.cleared = end
        return self._show(self.text[:end])

    def finish(self, final_text: str) -> str:
        """Return the rest to show once the answer was checked and `final_text` decided."""
        return self._show(final_text)

    def _show(self, verified: str) -> str:
        """The part of a verified answer the consumer does not have yet.

        The answer is laid over what is shown from `_offset` on: text that extends it
        adds the difference, text it already covers adds nothing, and text that
        departs from it is shown whole after `RETRY_SEPARATOR` (shown text is never
        taken back).
        """
        own = self.shown[self._offset :]
        if verified.startswith(own):
            out = verified[len(own) :]
        elif own.startswith(verified):
            out = ""
        else:
            out = (RETRY_SEPARATOR if self.shown else "") + verified
            self._offset = len(self.shown) + len(out) - len(verified)
        self.shown += out
        return out


class ReleaseRun:
    """A chat-model run named `fact_check_release` that streams the released answer text.

    Callback consumers (`astream_events`, `astream_log`, LangGraph's `messages`
    stream, tracers) see checked text as `on_llm_new_token` chunks of this run,
    while the model runs that produced the unchecked text are withheld.
    """

    def __init__(self, manager: CallbackManager) -> None:
        self.manager = manager
        """Starts the release run (a run manager's `get_child()`, or a node's manager)."""
        self.run: CallbackManagerForLLMRun | None = None
        self.text = ""
        self.message_id: str | None = None

    def emit(self, items: list[tuple[str, str | None]]) -> None:
        """Stream released text as tokens (starting the run on the first one)."""
        for text, message_id in items:
            self.emit_message(AIMessageChunk(content=text, id=message_id))

    def emit_message(self, message: AIMessageChunk) -> None:
        """Stream one message chunk (released text, or tool-call chunks) as a token."""
        if self.run is None:
            self.run = self.manager.on_chat_model_start(
                {"name": RELEASE_RUN_NAME}, [[]], name=RELEASE_RUN_NAME
            )[0]
        text = message_text(message)
        self.text += text
        self.message_id = self.message_id or message.id
        self.run.on_llm_new_token(text, chunk=ChatGenerationChunk(message=message))

    def end(self, items: list[tuple[str, str | None]]) -> None:
        """Stream the last released text and end the run with the whole of it."""
        self.emit(items)
        self.close()

    def close(self) -> None:
        """End the run (if it started) with the text it streamed."""
        if self.run is not None:
            self.run.on_llm_end(_result(self.text, self.message_id))


class AsyncReleaseRun:
    """Async `ReleaseRun`."""

    def __init__(self, manager: AsyncCallbackManager) -> None:
        self.manager = manager
        """Starts the release run (a run manager's `get_child()`, or a node's manager)."""
        self.run: AsyncCallbackManagerForLLMRun | None = None
        self.text = ""
        self.message_id: str | None = None

    async def emit(self, items: list[tuple[str, str | None]]) -> None:
        """Stream released text as tokens (starting the run on the first one)."""
        for text, message_id in items:
            await self.emit_message(AIMessageChunk(content=text, id=message_id))

    async def emit_message(self, message: AIMessageChunk) -> None:
        """Stream one message chunk (released text, or tool-call chunks) as a token."""
        if self.run is None:
            runs = await self.manager.on_chat_model_start(
                {"name": RELEASE_RUN_NAME}, [[]], name=RELEASE_RUN_NAME
            )
            self.run = runs[0]
        text = message_text(message)
        self.text += text
        self.message_id = self.message_id or message.id
        await self.run.on_llm_new_token(text, chunk=ChatGenerationChunk(message=message))

    async def end(self, items: list[tuple[str, str | None]]) -> None:
        """Stream the last released text and end the run with the whole of it."""
        await self.emit(items)
        await self.close()

    async def close(self) -> None:
        """End the run (if it started) with the text it streamed."""
        if self.run is not None:
            await self.run.on_llm_end(_result(self.text, self.message_id))


def _result(text: str, message_id: str | None) -> LLMResult:
    return LLMResult(generations=[[ChatGeneration(message=AIMessage(content=text, id=message_id))]])
