"""The `factcheck` command: `eval` over a suite, `check` for one answer, `calibrate` a confidence table, `audit`,
`mutate`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from factcheck.inputs import (
    InputError,
    check_calibration,
    check_output_path,
    load_context,
    load_tool_calls,
    read_answer,
    whole_number,
)
from factcheck.progress import ProgressLine, close_all

__all__ = ["EXIT_FLAGGED", "EXIT_OK", "EXIT_USAGE", "InputError", "build_parser", "load_context",
           "load_tool_calls", "main"]

EXIT_OK = 0
"""Nothing flagged (check, audit) or the eval ran."""
EXIT_FLAGGED = 1
"""`check` or `audit` found at least one contradicted or unsupported claim."""
EXIT_USAGE = 2
"""Bad arguments or input (named in one line on stderr, before any work), or the checker itself failed."""
EXIT_PIPE_CLOSED = 141
"""The reader of stdout went away (`| head -1`): the command stops quietly, as a shell's SIGPIPE would."""
EXIT_STATUS_HELP = "exit status: 0 nothing flagged, 1 something flagged, 2 bad input (one line on stderr)"
"""The exit codes, as every subcommand's help ends."""


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.checker import FactChecker

    if args.answer == "-" and args.tools == "-":
        raise InputError("--answer and --tools cannot both read stdin")
    config = _checker_config(args)
    answer = read_answer(args.answer)
    tool_calls = load_tool_calls(args.tools)
    context = load_context(args.context) if args.context else []
    report = FactChecker(config).check(answer, tool_calls=tool_calls, context=context, lang=args.lang)
    if args.json:
        head = {"ok": report.ok, "flagged": len(report.flagged), "uncertain": len(report.uncertain)}
        out.write(json.dumps({**head, **report.model_dump(mode="json")}, ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(str(report) + "\n")
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
    """The `CheckerConfig` of `check`, `eval` and `audit`; a bad calibration file is an input error."""
    from factcheck.config import CheckerConfig

    if args.calibration is not None:
        check_calibration(args.calibration)
    return CheckerConfig(**_confidence_options(args))


def _cmd_calibrate(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.eval.calibrate import calibrate
    from factcheck.eval.suite import load_suite

    check_output_path(args.out, "--out")
    cases = load_suite(args.suite)
    table = calibrate(cases, [str(p) for p in args.suite], l2=args.l2,
                      progress=ProgressLine("calibrate", "cases", enabled=not args.quiet))
    table.save(args.out)
    out.write(f"calibration: {table.samples} flagged facts ({table.positives} right) from {len(cases)} cases, "
              f"{len(table.weights)} feature weights; written to {args.out}\n")
    return EXIT_OK


def _cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from factcheck.eval.runner import evaluate
    from factcheck.eval.suite import bundled_suite_path, load_suite
    from factcheck.eval.tables import text_report

    if args.report:
        check_output_path(args.report, "--report")
    config = _checker_config(args)
    sources = [str(p) for p in args.suite] if args.suite else [str(bundled_suite_path())]
    cases = load_suite(args.suite or None)
    show = not args.quiet

    def progress(name: str) -> Callable[[int, int], None]:
        return ProgressLine(f"{name:<10}", "cases", enabled=show)

    summary, results = evaluate(cases, baselines=args.baseline, config=config, progress=progress,
                                workers=args.workers)
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
    parser.epilog = EXIT_STATUS_HELP
    sub = parser.add_subparsers(dest="command", required=True)

    def confidence_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("--min-confidence", type=_probability, metavar="P",
                             help="flags below this confidence are reported as uncertain and do not "
                             "count (default: CheckerConfig's, 0.7)")
        command.add_argument("--calibration", metavar="FILE",
                             help="a confidence table from `factcheck calibrate` (default: the shipped one)")

    ev = sub.add_parser("eval", help="score the checker on a suite of recorded cases",
                        description="Run the checker over a suite and print its scores.",
                        epilog="exit status: 0 the eval ran, 2 bad input (one line on stderr)")
    suite = ev.add_argument("--suite", nargs="+", action="extend", metavar="PATH", default=[],
                            help="suite .jsonl file(s) or directories of them, or the name of a shipped suite: "
                                 "%(shipped)s (default: bundled)")
    suite.shipped = _SuiteNames()  # read from the registry only when the help is printed
    ev.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    ev.add_argument("--baseline", nargs="+", action="extend", metavar="NAME", default=[],
                    choices=_BaselineNames(), help="also score these baselines: %(choices)s")
    ev.add_argument("--report", metavar="FILE", help="write an HTML report with every miss "
                    "and false alarm")
    ev.add_argument("--agent", metavar="MODULE:FACTORY", help="also run a LangChain agent "
                    "(FACTORY(tools) -> Runnable) over the questions with stubbed tools, "
                    "with and without .with_fact_check()")
    ev.add_argument("--workers", type=whole_number(1), default=1, metavar="N",
                    help="check the suite in N processes: the same verdicts and scores, sooner on a machine "
                    "with N cores (default: 1)")
    ev.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    confidence_options(ev)
    ev.set_defaults(func=_cmd_eval)

    ck = sub.add_parser("check", help="check one answer; exit 1 when anything is flagged",
                        description="Check one answer against a JSON or JSONL file of tool calls.",
                        epilog=EXIT_STATUS_HELP)
    ck.add_argument("--answer", required=True, metavar="FILE|-",
                    help="the answer text ('-': stdin)")
    ck.add_argument("--tools", required=True, metavar="FILE",
                    help="tool calls: a JSON list of {name, args, output, status} objects, JSON Lines of them, "
                    "a case-format object, or an OpenAI/LangChain message export")
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
    cal_suite = cal.add_argument("suite", nargs="+", metavar="SUITE",
                                 help="labelled suite .jsonl file(s) or directories, or shipped suite names: "
                                      "%(shipped)s")
    cal_suite.shipped = _SuiteNames()
    cal.add_argument("--out", default="calibration.json", metavar="FILE",
                     help="where to write the table (default: calibration.json)")
    cal.add_argument("--l2", type=float, default=1.0, help="ridge penalty on the weights (default: 1.0)")
    cal.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    cal.set_defaults(func=_cmd_calibrate)

    from factcheck.audit.command import add_audit_arguments

    au = sub.add_parser("audit", help="check every assistant turn of stored conversations (JSON Lines)",
                        description="Check each assistant text turn of stored conversations against the tool "
                        "results stored before it.",
                        epilog=EXIT_STATUS_HELP + "; also 2 when some lines or files were skipped (noted "
                        "on stderr; the rest is audited)")
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


class _SuiteNames:
    """The shipped suites' names for a help text, read from `BUNDLED_SUITES` only when the help is printed."""

    def __str__(self) -> str:
        from factcheck.eval.suite import BUNDLED_SUITES

        return ", ".join(BUNDLED_SUITES)


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
        The exit status: 0 nothing flagged, 1 flagged (`check`, `audit`), 2 bad usage or input (one line on
        stderr, no traceback) or a checker failure; 141 when stdout's reader went away (`| head -1`).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, or a usage error already printed by argparse
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    try:
        return _run(args)
    except BrokenPipeError:
        close_all()
        _silence_stdout()
        return EXIT_PIPE_CLOSED
    except KeyboardInterrupt:
        _error("interrupted")
        return 130


def _run(args: argparse.Namespace) -> int:
    """Run the parsed subcommand; every error becomes one line on stderr."""
    from factcheck.errors import CheckerFailure  # after parsing: --help imports no pydantic model
    from factcheck.eval.agent import AgentLoadError
    from factcheck.eval.suite import SuiteError
    from factcheck.mutate.inputs import MutateInputError

    try:
        return args.func(args, sys.stdout)
    except (InputError, SuiteError, AgentLoadError, CheckerFailure, MutateInputError) as err:
        _error(f"error: {err}")
    except BrokenPipeError:
        raise
    except OSError as err:  # an output that could not be written after all (disk full, removed directory)
        _error(f"error: {err.filename or ''}: {err.strerror or err}")
    except Exception as err:  # noqa: BLE001 - a bug must still end in one line, not a traceback
        _error(f"internal error ({type(err).__name__}: {err}); please report it")
    return EXIT_USAGE


def _error(message: str) -> None:
    """Finish any progress line, then print the message on one line (a pydantic error spans several)."""
    close_all()
    print("factcheck: " + " ".join(message.split()), file=sys.stderr)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail again (see the `signal` docs)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no file (tests capture it)
        pass


if __name__ == "__main__":
    sys.exit(main())
