"""Token taps: read a model's streamed answer and pass on only what the checker cleared."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

from factcheck.langchain.extract import message_text
from factcheck.langchain.release import AsyncReleaseRun, ReleaseRun, SentenceReleaser


class Tap:
    """Turns the tokens of one model call into the chunks a consumer may see.

    Text goes through a `SentenceReleaser`; once the message turns out to call tools,
    its held text and its tool-call chunks pass as they are (they are not the answer).
    Every chunk it passes carries one message id: the id of the answer slot of this
    turn when an earlier attempt streamed part of it, else the model's message id.
    """

    def __init__(
        self, releaser: SentenceReleaser, release: ReleaseRun | AsyncReleaseRun, slot_id: str | None
    ) -> None:
        self.releaser = releaser
        """Decides which answer text is cleared."""
        self.release = release
        """The `fact_check_release` run that streams the passed chunks."""
        self.message_id = slot_id
        """The id every passed chunk carries (set from the first token when None)."""
        self.model_run: UUID | None = None
        self.tool = False
        self.streamed = False
        self.emitted = ""

    def start(self, run_id: UUID) -> None:
        """The first chat model run below the tap is the model call; later ones are not."""
        if self.model_run is None:
            self.model_run = run_id

    def take(self, chunk: Any, run_id: UUID) -> list[AIMessageChunk]:
        """The chunks to pass on for one token of the model call."""
        if run_id != self.model_run or not isinstance(chunk, ChatGenerationChunk):
            return []
        message = chunk.message
        self.streamed = True
        self.message_id = self.message_id or message.id
        calls = getattr(message, "tool_call_chunks", None)
        if self.tool:
            return [AIMessageChunk(content=message_text(message), id=self.message_id,
                                   tool_call_chunks=calls or [])]
        text = message_text(message)
        if calls:
            self.tool = True
            held = self.releaser.text[len(self.emitted):] + text
            self.emitted += held
            return [AIMessageChunk(content=held, id=self.message_id, tool_call_chunks=calls)]
        out = self.releaser.feed(text)
        if not out:
            return []
        self.emitted += out
        return [AIMessageChunk(content=out, id=self.message_id)]

    def shown_text(self) -> str:
        """The verified answer text of this slot streamed so far (earlier attempts too)."""
        return self.releaser.shown

    def closing(self, final_text: str | None, metadata: dict[str, Any]) -> list[AIMessageChunk]:
        """The last chunk once `final_text` is decided (None: a retry, nothing to stream).

        It holds the rest of the answer and `metadata` (the run report). Only a model
        call that streamed tokens has one: a model that did not stream puts its whole
        (checked) message on the stream when its node ends.
        """
        if final_text is None or self.tool or not self.streamed:
            return []
        rest = self.releaser.finish(final_text)
        return [AIMessageChunk(content=rest, id=self.message_id, response_metadata=metadata)]


class SyncTap(BaseCallbackHandler):
    """Callback handler that feeds a `Tap` and streams its chunks at once."""

    run_inline = True
    raise_error = True

    def __init__(self, tap: Tap) -> None:
        self.tap = tap
        """The tap to feed."""

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID,
                            **kwargs: Any) -> None:
        """Note the model call's run."""
        self.tap.start(run_id)

    def on_llm_new_token(self, token: str, *, chunk: Any = None, run_id: UUID,
                         **kwargs: Any) -> None:
        """Stream what the tap passes of this token."""
        for message in self.tap.take(chunk, run_id):
            self.tap.release.emit_message(message)  # type: ignore[unused-coroutine]


class AsyncTap(AsyncCallbackHandler):
    """Async `SyncTap`."""

    run_inline = True
    raise_error = True

    def __init__(self, tap: Tap) -> None:
        self.tap = tap
        """The tap to feed."""

    async def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID,
                                  **kwargs: Any) -> None:
        """Note the model call's run."""
        self.tap.start(run_id)

    async def on_llm_new_token(self, token: str, *, chunk: Any = None, run_id: UUID,
                               **kwargs: Any) -> None:
        """Stream what the tap passes of this token."""
        for message in self.tap.take(chunk, run_id):
            await self.tap.release.emit_message(message)  # type: ignore[misc]
