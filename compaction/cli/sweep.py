"""`compaction sweep FILE --x NAME=V1,V2 [--y NAME=V1,V2]`: one replay per cell of a grid of two settings
or parameters of the strategy (`--strategy anthropic-compact --x trigger=100000,200000`), or of a
line of one, every measure kept per cell (the table shows one)."""

import argparse

from compaction.cli import common as cli_common
from compaction.cli.strategies import add_strategy_flags, strategy_from
from compaction.errors import SettingsError
from compaction.measures.registry import MEASURES, measure_text
from compaction.sweep.sweeps import SweepResult


def add_command(subparsers) -> None:
    sweep = subparsers.add_parser("sweep", help="replay over a grid of two settings or strategy parameters (or a "
                                  "line of one) and measure each cell")
    cli_common.add_input_flags(sweep)
    cli_common.add_setting_flags(sweep)
    cli_common.add_loop_flags(sweep)
    add_strategy_flags(sweep)
    sweep.add_argument("--x", required=True, metavar="NAME=V1,V2,...",
                       help="the setting (or parameter of --strategy) along the columns and its values, e.g. "
                            "context_limit=20000,50000, or trigger=100000,200000 with --strategy anthropic-compact")
    sweep.add_argument("--y", metavar="NAME=V1,V2,...",
                       help="the setting or parameter along the rows and its values, e.g. keep_recent=1,3,5 "
                            "(without it: a line along --x)")
    sweep.add_argument("--measure", choices=tuple(MEASURES), default="peak_tokens",
                       help="the measure the table shows (--json has them all; default: peak_tokens)")
    cli_common.add_executor_flags(sweep)  # the grid's lines are spread over them
    sweep.set_defaults(handler=command_sweep)


def command_sweep(args: argparse.Namespace) -> int:
    from compaction.storage.outputs import OutputStore
    from compaction.sweep.parallel import open_executor
    from compaction.sweep.sweeps import sweep

    if args.summarizer != "offline":
        raise SettingsError("a sweep replays the session once per cell; it uses the offline summariser only")
    strategy = strategy_from(args)
    x = cli_common.parse_axis(args.x, "--x", strategy.spec)
    y = cli_common.parse_axis(args.y, "--y", strategy.spec) if args.y else None
    settings = cli_common.settings_from(args)
    conversation = cli_common.load(args)
    store = OutputStore(args.store) if args.store else None
    with open_executor(args.workers, args.scheduler, forked=True) as executor:  # a command runs no other thread
        result = sweep(conversation, x, y, settings, measure=args.measure, strategy=strategy,
                       model_window_tokens=args.model_window, store=store, prices=cli_common.prices_from(args),
                       executor=executor)
    return cli_common.emit(args, result.as_dict(), f"{args.file}: {MEASURES[result.measure].label}, {result.replays} replays "
                 f"for {result.cell_count} cells{kernel_note(result)}", sweep_table(result))


def kernel_note(result: SweepResult) -> str:
    """How many cells the columnar kernel computed, and why the loop ran the others."""
    if result.by_threshold:
        return f" ({result.by_threshold} run together by the loop until their thresholds parted them)"
    if not result.by_kernel:
        return ""
    why = sorted(set(result.left_to_loop.values()))
    return f" ({result.by_kernel} by the columnar kernel" + (f"; the loop ran {len(result.left_to_loop)}: "
                                                             f"{'; '.join(why)})" if why else ")")


def sweep_table(result: SweepResult) -> str:
    """The measure over the grid, rows by y value (one row named after the measure for a line)."""
    def show(value) -> str:
        return measure_text(value, result.measure)

    def value_text(value) -> str:
        return f"{value:,}" if isinstance(value, int | float) and not isinstance(value, bool) else str(value)

    header = f"{result.y_name} \\ {result.x_name}" if result.y_name is not None else result.x_name
    labels = [value_text(v) for v in result.y_values] if result.y_name is not None else [result.measure]
    width = max(12, *(len(show(v)) for row in result.grid() for v in row), *(len(value_text(v)) for v in result.x_values))
    left = max(len(header), *(len(label) for label in labels))
    lines = [f"{header:>{left}} " + " ".join(f"{value_text(v):>{width}}" for v in result.x_values)]
    for label, row in zip(labels, result.grid(), strict=True):
        lines.append(f"{label:>{left}} " + " ".join(f"{show(v):>{width}}" for v in row))
    return "\n".join(lines)
