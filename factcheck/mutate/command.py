"""The `factcheck mutate` command: read suites or histories, mutate, write a case-format suite."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from factcheck.inputs import whole_number
from factcheck.mutate.names import CLASSES, MISTAKE_NAMES


def add_mutate_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of `factcheck mutate`.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="case-format suites or stored histories (JSON Lines, the formats `audit` reads)")
    parser.add_argument("--out", required=True, metavar="FILE", help="where to write the suite (.jsonl or .jsonl.gz)")
    parser.add_argument("--classes", type=_classes, metavar="C,...",
                        help=f"classes to use, comma-separated (default: all): {', '.join(CLASSES)}")
    parser.add_argument("--per-answer", type=whole_number(0), default=2, metavar="N",
                        help="at most N mistakes and N rewrites per answer (default: 2)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the seed (default: 0)")
    parser.add_argument("--lang", choices=["zh", "en", "mixed"], help="only answers in this language")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _classes(text: str) -> list[str]:
    names = [c.strip() for c in text.split(",") if c.strip()]
    unknown = [c for c in names if c not in CLASSES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown class {unknown[0]!r}" if unknown else "no class given")
    return names


@contextmanager
def progress_bar(label: str, enabled: bool, stream: TextIO | None = None) -> Iterator[Callable[[int, int], None]]:
    """A `rich` progress bar on a terminal (imported only then); nothing on a pipe or file.

    Args:
        label: The bar's description.
        enabled: False to stay silent.
        stream: Where to draw (default stderr).

    Yields:
        A `(done, total)` callback.
    """
    stream = stream if stream is not None else sys.stderr
    if not (enabled and getattr(stream, "isatty", lambda: False)()):
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(file=stream), transient=False) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            if done == 1 or done == total or done % 100 == 0:
                bar.update(task, completed=done, total=total)

        yield update


def run_mutate(args: argparse.Namespace, out: TextIO) -> int:
    """Run `factcheck mutate`.

    Args:
        args: The parsed arguments.
        out: Where the summary goes.

    Returns:
        0; bad input raises `MutateInputError` (the CLI turns it into exit 2).
    """
    from factcheck.mutate.driver import mutate_cases
    from factcheck.mutate.inputs import read_inputs, write_cases

    cases, notes = read_inputs(args.inputs)
    for note in notes:
        print(f"factcheck mutate: {note}", file=sys.stderr)
    with progress_bar("mutate", not args.quiet) as progress:
        mutated = mutate_cases(cases, classes=args.classes, per_answer=args.per_answer, seed=args.seed,
                               lang=args.lang, progress=progress)
    try:
        write_cases(mutated, args.out)
    except OSError as err:
        from factcheck.mutate.inputs import MutateInputError

        raise MutateInputError(f"{args.out}: cannot write: {err.strerror or err}") from None
    counts = Counter(c["error"] for c in mutated)
    wrong = sum(n for name, n in counts.items() if name in MISTAKE_NAMES)
    per_class = ", ".join(f"{name} {counts[name]}" for name in CLASSES if counts[name])
    out.write(f"mutate: {len(cases)} answers read, {wrong} mistakes and {len(mutated) - wrong} rewrites written "
              f"to {args.out}" + (f" ({per_class})" if per_class else "") + "\n")
    return 0
