"""`factcheck audit PATH...`: arguments, the local engine, and output (JSON Lines, tables, HTML, --fix)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from factcheck.inputs import CONVERSATION_SHAPE

EXIT_OK, EXIT_FLAGGED, EXIT_BAD_INPUT = 0, 1, 2


def add_audit_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `audit` subcommand's arguments (stdlib only: building the parser stays cheap).

    Args:
        parser: The `audit` subparser.
    """
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="JSON Lines files, one stored conversation per line")
    parser.add_argument("--format", choices=("auto", "openai", "langchain"), default="auto",
                        help="message format: OpenAI chat messages, LangChain messages_to_dict / dumpd "
                        "records or LangGraph state exports (default: auto, per message)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per assistant text turn (JSON Lines); the summary goes "
                        "to stderr")
    parser.add_argument("--report", metavar="OUT.html", help="write an HTML report of the flagged turns")
    parser.add_argument("--fix", metavar="OUT.jsonl",
                        help="write a copy with the unbacked links and identifiers of flagged turns replaced "
                        "by a visible placeholder; everything else byte-identical")
    parser.add_argument("--engine", choices=("local", "ray"), default="local",
                        help="local: one process; ray: Ray Data with one checker per actor "
                        "(pip install 'agent-factcheck[ray]')")
    parser.add_argument("--ray-address", metavar="ADDRESS",
                        help="Ray cluster to connect to (default: start Ray locally)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def run_audit(args: argparse.Namespace, out: TextIO, config: Any, err: TextIO | None = None) -> int:
    """Run `factcheck audit`.

    Args:
        args: Parsed arguments.
        out: Where verdicts and the summary go.
        config: The `CheckerConfig`.
        err: Where notes (and the summary with `--json`) go; default stderr.

    Returns:
        0 nothing flagged, 1 a turn is flagged, 2 some input could not be read (lines or files
        skipped; the rest was audited).
    """
    from factcheck.audit.lines import shown
    from factcheck.audit.summary import Tally, render_audit_html, summarize, summary_text
    from factcheck.inputs import InputError, check_audit_inputs, check_output_path

    err = err if err is not None else sys.stderr
    outputs = {"--fix": args.fix, "--report": args.report}
    for option, path in outputs.items():
        if path:
            check_output_path(path, option)
    _refuse_overwrite(args.paths, [p for p in outputs.values() if p])
    paths, empty = check_audit_inputs(args.paths)
    notes, readable = _readable(paths)
    notes = empty + notes
    bad_files = len(args.paths) - len(readable)
    if args.engine == "ray":
        from factcheck.audit.ray_engine import EngineError, audit_lines_ray

        try:
            results = list(audit_lines_ray(readable, config, args.format, bool(args.fix), args.ray_address))
        except EngineError as error:
            raise InputError(str(error)) from None
    else:
        results = _audit_local(readable, notes, config, args.format, bool(args.fix), not args.quiet)
    tally = Tally()
    flagged: list[dict[str, Any]] = []  # kept for the HTML report only: the rest streams
    changes: Counter[str] = Counter()
    fixed: dict[tuple[str, int], str] = {}
    conversations = skipped = 0
    for res in results:
        notes.extend(res.notes)
        skipped += res.skipped
        conversations += not res.skipped
        changes.update(res.changes)
        if res.fixed is not None:
            fixed[(res.file, res.line)] = res.fixed
        for text in res.records:
            if args.json:
                out.write(text + "\n")
            record = json.loads(text)
            tally.add(record)
            if not record["ok"]:
                if not args.json:
                    out.write(shown("".join(_flagged_lines([record]))))
                if args.report:
                    flagged.append(record)
    if not conversations:
        first = next((n for n in notes if "line skipped" in n), "no line holds a conversation")
        raise InputError(f"no conversation to audit in {', '.join(args.paths)} ({first}); "
                         f"expected {CONVERSATION_SHAPE}")
    summary = summarize(tally, conversations, skipped, bad_files, len(notes), changes if args.fix else None)
    for note in notes:
        err.write(shown(f"factcheck audit: {note}\n"))
    text = summary_text(summary)
    if not args.json and summary["flagged_turns"]:
        out.write("\n")
    if args.fix:
        _write_fixed(args.paths, args.fix, fixed)
        text += f"\n\ncleaned copy: {args.fix}"
    if args.report:
        html = render_audit_html(summary, flagged, args.paths, [shown(n) for n in notes])
        Path(args.report).write_text(shown(html), encoding="utf-8")
        text += f"\nHTML report: {args.report}"
    (err if args.json else out).write(text + "\n")
    if skipped or bad_files:
        return EXIT_BAD_INPUT
    return EXIT_FLAGGED if summary["flagged_turns"] else EXIT_OK


def _refuse_overwrite(inputs: Sequence[str], outputs: Sequence[str]) -> None:
    """Stop before anything is written when an output path names an input."""
    from factcheck.inputs import InputError

    given = {os.path.realpath(p) for p in inputs}
    for path in outputs:
        if os.path.realpath(path) in given:
            raise InputError(f"{path}: is an input file; audit never writes over its input")


def _readable(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """Notes on the files that cannot be opened, and the readable files (nothing is read yet)."""
    notes, readable = [], []
    for path in paths:
        try:
            with open(path, "rb"):
                pass
        except OSError as error:
            notes.append(f"{path}: cannot read: {error.strerror or error}; file skipped")
            continue
        readable.append(path)
    return notes, readable


def _input_lines(paths: Sequence[str], notes: list[str]) -> Iterator[tuple[str, int, str, list[str]]]:
    """The non-blank lines of the files as `(file, line, text, notes)`, streamed file by file."""
    from factcheck.audit.lines import read_lines

    for path in paths:
        try:
            for lineno, _raw, text, line_notes in read_lines(path):
                if text.strip():
                    yield path, lineno, text, line_notes
        except OSError as error:
            notes.append(f"{path}: read failed: {error.strerror or error}; the rest of the file skipped")


def _count_lines(paths: Sequence[str]) -> int:
    """Lines of the files (a streamed count of line ends, for the progress bar)."""
    total = 0
    for path in paths:
        try:
            with open(path, "rb") as stream:
                for block in iter(lambda: stream.read(1 << 20), b""):
                    total += block.count(b"\n")
        except OSError:
            continue
    return total


def _audit_local(paths: Sequence[str], notes: list[str], config: Any, fmt: str, fix: bool,
                 show: bool) -> Iterator[Any]:
    """Audit line by line in this process, with one checker, showing progress on a terminal (the turns of
    each conversation on a second line).

    The files are streamed: one line is in memory at a time.
    """
    from factcheck.audit.lines import audit_line
    from factcheck.checker import FactChecker
    from factcheck.progress import ProgressLine

    checker = FactChecker(config)
    progress = ProgressLine("audit", "conversations", enabled=show)
    total = _count_lines(paths) if progress.enabled else 0  # blank lines too: the line ends at the end
    progress(0, total)
    for done, (path, lineno, text, line_notes) in enumerate(_input_lines(paths, notes), start=1):
        def turns(n: int, of: int, where: str = f"{Path(path).name}:{lineno}") -> None:
            progress.step(f"{where}: turn", n, of)

        yield audit_line(text, path, lineno, checker, fmt, fix=fix and not line_notes, notes=line_notes,
                         progress=turns if progress.enabled else None)
        progress(min(done, max(total - 1, 0)), total)
    progress(total, total)


def _flagged_lines(records: Sequence[dict[str, Any]]) -> Iterator[str]:
    """One line per flagged claim of the flagged turns, for the text output."""
    for rec in records:
        if rec["ok"]:
            continue
        for claim in rec["report"]["claims"]:
            if claim["verdict"] in ("contradicted", "unsupported"):
                yield (f"{rec['file']}:{rec['line']} conversation {rec['conversation']} turn {rec['turn']}: "
                       f"{claim['verdict']}: {claim['text']!r}: {claim['reason']}\n")


def _write_fixed(paths: Sequence[str], target: str, fixed: dict[tuple[str, int], str]) -> None:
    """The inputs concatenated, each fixed line in place of its original, every other byte copied."""
    from factcheck.audit.lines import read_lines, utf16_codec

    with open(target, "wb") as sink:
        for path in paths:
            try:
                codec = "utf-8"
                for lineno, raw, _text, _notes in read_lines(path):
                    new = fixed.get((path, lineno))
                    if lineno == 1:
                        codec = utf16_codec(raw[:4]) or "utf-8"
                    if new is None:
                        sink.write(raw)
                        continue
                    bom = b""
                    if lineno == 1 and raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
                        bom = raw[:3] if codec == "utf-8" else raw[:2]
                    ending = raw[len(bom):].decode(codec, errors="replace")
                    ending = ending[len(ending.rstrip("\r\n")):]
                    sink.write(bom + (new + ending).encode(codec))
            except OSError:
                continue
