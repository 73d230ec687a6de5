"""`python -m compaction replay|sweep`: the replay and the settings sweep on the command line.

`add_replay_commands(subparsers)` adds both to the main parser (compaction/cli/main.py). The shared
helpers of cli.py are imported inside functions: cli.py imports this module.
"""

import argparse
import re

from compaction.cli import common as cli_common
from compaction.cli.strategies import add_strategy_flags, strategy_from
from compaction.errors import SettingsError
from compaction.measures.cost import Prices
from compaction.model.settings import LIMITS
from compaction.replay.loop import ReplayResult
from compaction.replay.sweep import MEASURES, SweepResult, measure_text

_NUMBER = re.compile(r"^\d[\d_]*$")


def parse_axis(text: str, flag: str) -> tuple[str, list[int]]:
    """'context_limit=20000,50000' -> ('context_limit', [20000, 50000]); dashes or underscores."""
    name, equals, values = text.partition("=")
    name = name.strip().replace("-", "_")
    if not equals or not name:
        raise SettingsError(f"{flag} must look like SETTING=V1,V2,... (e.g. context_limit=20000,50000), got {text!r}")
    if name not in LIMITS:
        raise SettingsError(f"{flag}: unknown setting {name!r}; choose one of {', '.join(LIMITS)}")
    parsed = []
    for value in values.split(","):
        value = value.strip()
        if not _NUMBER.match(value):
            raise SettingsError(f"{flag}: {name} values must be whole numbers, got {value!r}")
        parsed.append(int(value))
    return name, parsed


def add_replay_commands(subparsers) -> None:
    replay = subparsers.add_parser("replay", help="replay a conversation through the agent loop, "
                                   "one record per model call")
    cli_common.add_input_flags(replay)
    cli_common.add_setting_flags(replay)
    _add_loop_flags(replay)
    replay.set_defaults(handler=command_replay)

    sweep = subparsers.add_parser("sweep", help="replay over a grid of two settings and measure each cell")
    cli_common.add_input_flags(sweep)
    cli_common.add_setting_flags(sweep)
    _add_loop_flags(sweep)
    sweep.add_argument("--x", required=True, metavar="SETTING=V1,V2,...",
                       help="the setting along the columns and its values, e.g. context_limit=20000,50000")
    sweep.add_argument("--y", required=True, metavar="SETTING=V1,V2,...",
                       help="the setting along the rows and its values, e.g. keep_recent=1,3,5")
    sweep.add_argument("--measure", choices=tuple(MEASURES), default="peak_tokens",
                       help="the measure the table shows (--json has them all; default: peak_tokens)")
    cli_common.add_executor_flags(sweep)  # the grid's lines are spread over them
    sweep.set_defaults(handler=command_sweep)


def _add_loop_flags(parser: argparse.ArgumentParser) -> None:
    cli_common.add_model_window_flag(parser)
    prices = Prices()
    parser.add_argument("--input-price", type=float, default=prices.input, metavar="USD",
                        help=f"US$ per million input tokens (default {prices.input})")
    parser.add_argument("--output-price", type=float, default=prices.output, metavar="USD",
                        help=f"US$ per million output tokens (default {prices.output})")
    parser.add_argument("--cache-write", type=float, default=prices.cache_write, metavar="X",
                        help=f"a cache write costs X times the input price (default {prices.cache_write})")
    parser.add_argument("--cache-read", type=float, default=prices.cache_read, metavar="X",
                        help=f"a cache read costs X times the input price (default {prices.cache_read})")
    add_strategy_flags(parser)


def prices_from(args: argparse.Namespace) -> Prices:
    return Prices(args.input_price, args.output_price, args.cache_write, args.cache_read)


def command_replay(args: argparse.Namespace) -> int:
    from compaction.replay.loop import replay

    settings = cli_common.settings_from(args)
    strategy = strategy_from(args)  # a bad name or parameter stops before the file is read
    conversation = cli_common.load(args)
    result = replay(conversation, settings, cli_common.make_store(args), cli_common.make_summarizer(args, settings),
                    args.model_window, strategy, keep_histories=False, prices=prices_from(args))
    data = result.as_dict()
    data["strategy"] = {"name": strategy.spec.name, "parameters": strategy.params}
    data["input"] = {"file": str(args.file), "format": conversation.format,
                     "messages": len(conversation.messages)}
    return _emit(args, data, f"{args.file}: {conversation.format}, {len(conversation.messages):,} messages, "
                 f"strategy {result.strategy}", replay_table(result))


def _emit(args: argparse.Namespace, data: dict, title: str, table: str) -> int:
    """One JSON object with --json, else a title line and a table."""
    if args.json:
        cli_common.write_json(data, None)
    else:
        print(title)
        print(table)
    return 0


def replay_table(result: ReplayResult) -> str:
    lines = [f"{'call':>6} {'message':>8} {'sent':>6} {'tokens':>9} {'no compaction':>14} {'summaries':>9}  acted"]
    for c in result.calls:
        lines.append(f"{c.call:>6} {c.index:>8} {c.messages:>6} {c.tokens:>9,} {c.raw_tokens:>14,} "
                     f"{c.summaries:>9}  {' '.join(c.acted)}{'  OVER WINDOW' if c.over_window else ''}")
    totals = result.totals
    lines += ["", f"calls {totals['calls']:,}, summaries {totals['summaries']:,}, reactive {totals['reactive']:,}, "
              f"compact tool {totals['compact_tool']:,}"]
    lines += [line for line in totals_lines(totals) if line]
    if totals["reactive"]:  # the window, not the settings, compacted: say which flag moves it
        lines.append(f"the model window ({totals['model_window_tokens']:,} tokens) was reached: reactive compaction "
                     f"ran {totals['reactive']:,} time(s) whatever the settings (--model-window sets the window)")
    return "\n".join(lines)


def _share(value) -> str:
    return "-" if value is None else f"{value:.1%}"


def totals_lines(totals: dict) -> list[str]:
    """The totals a person reads: tokens, what the baseline could really send, cost, cache, loss."""
    stop = totals["raw_stop_call"]
    baseline = (f"without compaction {totals['raw_tokens_sent']:,}" if stop is None else
                f"without compaction {totals['raw_tokens_sent']:,} before the agent stops at call {stop + 1:,} "
                "(prompt too long)")
    calibration = totals["calibration"]
    check = totals["cache_model_check"]
    return [
        f"tokens sent {totals['tokens_sent']:,} ({baseline}), peak context {totals['peak_tokens']:,} tokens",
        "tokens " + (f"calibrated on the log: median error {calibration['median_abs_error']:.1%} over "
                     f"{calibration['calls']:,} calls, {calibration['tokens_per_char']:.3f} per character + "
                     f"{calibration['overhead_tokens']:,} a call" if calibration else "estimated as characters / 4"),
        f"cost US${totals['cost_usd']:,.2f} with caching, US${totals['cost_usd_no_cache']:,.2f} without; "
        f"without compaction US${totals['raw_cost_usd']:,.2f} for the calls that could run",
        f"cache hit rate {_share(totals['cache_hit_rate'])}, {totals['cache_breaks']:,} call(s) where a layer broke "
        "the cache",
        f"blind references {totals['blind_references']:,}; artifacts still sent at the end "
        f"{_share(totals['artifact_retention'])}; tool output seen whole {_share(totals['tool_output_kept'])}",
        f"recorded context {totals['recorded_context_tokens']:,} tokens; cache model / log cache reads "
        f"{check['ratio']:.2f}" if check and check["ratio"] is not None else "",
    ]


def command_sweep(args: argparse.Namespace) -> int:
    from compaction.replay.parallel import open_executor
    from compaction.replay.sweep import sweep
    from compaction.storage.outputs import OutputStore

    if args.summarizer != "offline":
        raise SettingsError("a sweep replays the session once per cell; it uses the offline summariser only")
    x = parse_axis(args.x, "--x")
    y = parse_axis(args.y, "--y")
    settings = cli_common.settings_from(args)
    strategy = strategy_from(args)
    conversation = cli_common.load(args)
    store = OutputStore(args.store) if args.store else None
    with open_executor(args.workers, args.scheduler) as executor:
        result = sweep(conversation, x, y, settings, args.measure, strategy=strategy,
                       model_window_tokens=args.model_window, store=store, prices=prices_from(args),
                       executor=executor)
    return _emit(args, result.as_dict(), f"{args.file}: {MEASURES[result.measure]}, {result.replays} replays "
                 f"for {len(x[1]) * len(y[1])} cells", sweep_table(result))


def sweep_table(result: SweepResult) -> str:
    def show(value) -> str:
        return measure_text(value, result.measure)

    header = f"{result.y_name} \\ {result.x_name}"
    width = max(12, *(len(show(v)) for row in result.grid() for v in row), *(len(f"{v:,}") for v in result.x_values))
    lines = [f"{header:>{len(header)}} " + " ".join(f"{v:>{width},}" for v in result.x_values)]
    for y_value, row in zip(result.y_values, result.grid(), strict=True):
        lines.append(f"{y_value:>{len(header)},} " + " ".join(f"{show(v):>{width}}" for v in row))
    return "\n".join(lines)
