"""The `factcheck` command: `eval` over a suite, `check` for one answer, `calibrate` a confidence table, `audit`,
`mutate`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

EXIT_OK = 0
"""Nothing flagged (check) or the eval ran."""
EXIT_FLAGGED = 1
"""`check` found at least one contradicted or unsupported claim."""
EXIT_USAGE = 2
"""Bad arguments, unreadable input, or the checker itself failed."""


class InputError(ValueError):
    """An input file of `factcheck check` could not be read or parsed."""


class ProgressBar:
    """A one-line progress bar on a terminal; silent when the stream is not a TTY."""

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool = True,
                 width: int = 30) -> None:
        """Set up the bar.

        Args:
            label: Text before the bar.
            stream: Where to draw (default stderr).
            enabled: False to stay silent regardless of the stream.
            width: Bar width in characters.
        """
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.width = width
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled and bool(isatty and isatty())

    def __call__(self, done: int, total: int) -> None:
        """Draw the bar for `done` of `total`; ends the line when done.

        Args:
            done: Items finished.
            total: All items.
        """
        if not self.enabled or total <= 0:
            return
        filled = self.width * done // total
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: cannot read: {err}") from None


def load_tool_calls(path: str) -> list[Any]:
    """Read tool calls from a JSON or JSONL file.

    JSON may be a list of tool calls, a case-format object (its `tool_calls` are used)
    or one tool call object; JSONL holds one tool call per line. Items are passed to the
    checker as they are (case-format mappings or bare outputs).

    Args:
        path: The file, or `-` for stdin.

    Returns:
        The tool calls in order.

    Raises:
        InputError: naming the file (and line, for JSONL) when it cannot be parsed.
    """
    text = _read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        items = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise InputError(f"{path}:{lineno}: invalid JSON: {err.msg} "
                                 f"(column {err.colno})") from None
        if not items:
            raise InputError(f"{path}: no tool calls (empty file)") from None
        return items
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and isinstance(data.get("tool_calls"), list):
        return data["tool_calls"]
    return [data]


def load_context(path: str) -> list[str]:
    """Read context: a JSON array of strings, or plain text taken as one context string.

    Args:
        path: The file, or `-` for stdin.

    Returns:
        The context strings.

    Raises:
        InputError: when the file cannot be read.
    """
    text = _read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return [text]
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        return data
    return [text]


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.checker import FactChecker

    if args.answer == "-" and args.tools == "-":
        raise InputError("--answer and --tools cannot both read stdin")
    answer = _read_text(args.answer)
    tool_calls = load_tool_calls(args.tools)
    context = load_context(args.context) if args.context else []
    report = FactChecker(_checker_config(args)).check(
        answer, tool_calls=tool_calls, context=context, lang=args.lang
    )
    out.write((report.model_dump_json(indent=2) if args.json else str(report)) + "\n")
    return EXIT_OK if report.ok else EXIT_FLAGGED


def _confidence_options(args: argparse.Namespace) -> dict[str, Any]:
    """`CheckerConfig` fields from `--min-confidence` and `--calibration`, where given."""
    options: dict[str, Any] = {}
    if args.min_confidence is not None:
        options["min_confidence"] = args.min_confidence
    if args.calibration is not None:
        options["calibration_path"] = Path(args.calibration)
    return options


def _checker_config(args: argparse.Namespace) -> Any:
    """The `CheckerConfig` of `check` and `eval`; a bad calibration file is an input error."""
    from factcheck.calibration import Calibration
    from factcheck.config import CheckerConfig

    options = _confidence_options(args)
    if "calibration_path" in options:
        try:
            Calibration.load(options["calibration_path"])
        except ValueError as err:
            raise InputError(str(err)) from None
    return CheckerConfig(**options)


def _cmd_calibrate(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.eval.calibrate import calibrate
    from factcheck.eval.suite import load_suite

    cases = load_suite(args.suite)
    table = calibrate(cases, [str(p) for p in args.suite], l2=args.l2,
                      progress=ProgressBar("calibrate ", enabled=not args.quiet))
    table.save(args.out)
    out.write(f"calibration: {table.samples} flagged facts ({table.positives} right) from {len(cases)} cases, "
              f"{len(table.weights)} feature weights; written to {args.out}\n")
    return EXIT_OK


def _cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.eval.runner import evaluate
    from factcheck.eval.suite import bundled_suite_path, load_suite
    from factcheck.eval.tables import text_report

    sources = [str(p) for p in args.suite] if args.suite else [str(bundled_suite_path())]
    cases = load_suite(args.suite or None)
    show = not args.quiet

    def progress(name: str) -> Callable[[int, int], None]:
        return ProgressBar(f"{name:<10}", enabled=show)

    summary, results = evaluate(cases, baselines=args.baseline, config=_checker_config(args), progress=progress)
    summary = {"suite": sources, "system": "factcheck", **summary}
    agent_summary = None
    if args.agent:
        from factcheck.eval.agent import run_agent_eval

        agent_summary = run_agent_eval(cases, args.agent, progress=progress)
        summary["agent"] = agent_summary
    if args.report:
        from factcheck.eval.html import render_html

        page = render_html(summary, results["factcheck"], sources)
        Path(args.report).write_text(page, encoding="utf-8")
    if args.json:
        out.write(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
    else:
        text = text_report(summary, sources)
        if agent_summary is not None:
            from factcheck.eval.agent import agent_text

            text += "\n\n" + agent_text(agent_summary)
        if args.report:
            text += f"\n\nHTML report: {args.report}"
        out.write(text + "\n")
    return EXIT_OK


def _cmd_audit(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.audit.command import run_audit

    return run_audit(args, out, _checker_config(args))


def _cmd_mutate(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.mutate.command import run_mutate

    return run_mutate(args, out)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `factcheck` command.

    Returns:
        The parser with the `eval`, `check`, `calibrate`, `audit` and `mutate` subcommands.
    """
    parser = argparse.ArgumentParser(
        prog="factcheck",
        description="Check an agent's answers against the tool outputs of its runs.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{eval,check,calibrate,audit,mutate}")

    def confidence_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("--min-confidence", type=_probability, metavar="P",
                             help="flags below this confidence are reported as uncertain and do not "
                             "count (default: CheckerConfig's, 0.6)")
        command.add_argument("--calibration", metavar="FILE",
                             help="a confidence table from `factcheck calibrate` (default: the shipped one)")

    ev = sub.add_parser("eval", help="score the checker on a suite of recorded cases",
                        description="Run the checker over a suite and print its scores.")
    ev.add_argument("--suite", nargs="+", action="extend", metavar="PATH", default=[],
                    help="suite .jsonl file(s) or directories of them, or the name of a shipped suite: "
                         "bundled, heldout (default: bundled)")
    ev.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    ev.add_argument("--baseline", nargs="+", action="extend", metavar="NAME", default=[],
                    choices=_BaselineNames(), help="also score these baselines: %(choices)s")
    ev.add_argument("--report", metavar="FILE", help="write an HTML report with every miss "
                    "and false alarm")
    ev.add_argument("--agent", metavar="MODULE:FACTORY", help="also run a LangChain agent "
                    "(FACTORY(tools) -> Runnable) over the questions with stubbed tools, "
                    "with and without .with_fact_check()")
    ev.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    confidence_options(ev)
    ev.set_defaults(func=_cmd_eval)

    ck = sub.add_parser("check", help="check one answer; exit 1 when anything is flagged",
                        description="Check one answer against a JSON or JSONL file of tool "
                        "calls. Exit status: 0 grounded, 1 flagged, 2 bad input.")
    ck.add_argument("--answer", required=True, metavar="FILE|-",
                    help="the answer text ('-': stdin)")
    ck.add_argument("--tools", required=True, metavar="FILE",
                    help="tool calls: JSON list, case-format object, or JSONL")
    ck.add_argument("--context", metavar="FILE",
                    help="context: JSON array of strings, or plain text")
    ck.add_argument("--lang", choices=["zh", "en", "mixed"],
                    help="answer language (default: detect)")
    ck.add_argument("--json", action="store_true", help="print the report as JSON")
    confidence_options(ck)
    ck.set_defaults(func=_cmd_check)

    cal = sub.add_parser("calibrate", help="fit the flag-confidence table on labelled suites",
                         description="Check every case of the suites and fit the table that gives each "
                         "flag its confidence (a logistic model over the checker's features), then "
                         "write it as JSON for CheckerConfig(calibration_path=...).")
    cal.add_argument("suite", nargs="+", metavar="SUITE",
                     help="labelled suite .jsonl file(s) or directories, or shipped suite names")
    cal.add_argument("--out", default="calibration.json", metavar="FILE",
                     help="where to write the table (default: calibration.json)")
    cal.add_argument("--l2", type=float, default=1.0, help="ridge penalty on the weights (default: 1.0)")
    cal.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    cal.set_defaults(func=_cmd_calibrate)

    from factcheck.audit.command import add_audit_arguments

    au = sub.add_parser("audit", help="check every assistant turn of stored conversations (JSON Lines)",
                        description="Check each assistant text turn of stored conversations against the tool "
                        "results stored before it. Exit status: 0 nothing flagged, 1 flagged, 2 some input "
                        "skipped (bad lines or files; the rest is audited).")
    add_audit_arguments(au)
    confidence_options(au)
    au.set_defaults(func=_cmd_audit)

    from factcheck.mutate.command import add_mutate_arguments

    mu = sub.add_parser("mutate", help="inject realistic mistakes into faithful answers, and rewrite them "
                        "without changing their meaning, as a labelled suite",
                        description="Read faithful answers (case-format suites or stored histories) and write a "
                        "case-format suite: each mutated answer with its exact wrong span and its class in `error`, "
                        "each meaning-preserving rewrite with no span. Exit status: 0 written, 2 bad input.")
    add_mutate_arguments(mu)
    mu.set_defaults(func=_cmd_mutate)
    return parser


class _BaselineNames:
    """The baselines' names for argparse, read from `factcheck.eval.baselines` only when a parse needs them."""

    def _names(self) -> list[str]:
        from factcheck.eval.baselines import BASELINES

        return sorted(BASELINES)

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def _probability(text: str) -> float:
    """An argparse type: a float in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `factcheck` command.

    Args:
        argv: Arguments without the program name (default: `sys.argv[1:]`).

    Returns:
        The exit status: 0 ok, 1 flagged (`check`), 2 bad usage or input, or a
        checker failure.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, or a usage error already printed by argparse
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    from factcheck.errors import CheckerFailure  # after parsing: --help imports no pydantic model
    from factcheck.eval.agent import AgentLoadError
    from factcheck.eval.suite import SuiteError
    from factcheck.mutate.inputs import MutateInputError

    try:
        return args.func(args, sys.stdout)
    except (InputError, SuiteError, AgentLoadError, CheckerFailure, MutateInputError) as err:
        print(f"factcheck: error: {err}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
