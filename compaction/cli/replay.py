"""`compaction replay FILE`: the agent loop over a conversation, one record per model call, and its totals."""

import argparse

from compaction.cli import common as cli_common
from compaction.cli.strategies import add_strategy_flags, strategy_from
from compaction.measures.branches_paid import paid_and_final
from compaction.measures.cost import DEFAULT_PRICES
from compaction.replay.lookups import call_number
from compaction.replay.loop import ReplayResult
from compaction.words import plural


def add_command(subparsers) -> None:
    replay = subparsers.add_parser("replay", help="replay a conversation through the agent loop, "
                                   "one record per model call")
    cli_common.add_input_flags(replay)
    cli_common.add_setting_flags(replay)
    cli_common.add_loop_flags(replay)
    add_strategy_flags(replay)
    replay.set_defaults(handler=command_replay)


def command_replay(args: argparse.Namespace) -> int:
    from compaction.replay.loop import replay

    settings = cli_common.settings_from(args)
    strategy = strategy_from(args)  # a bad name or parameter stops before the file is read
    conversation = cli_common.load(args)
    result = replay(conversation, settings, store=cli_common.make_store(args), summarizer=cli_common.make_summarizer(args, settings),
                    model_window_tokens=args.model_window, strategy=strategy, keep_histories=False, prices=cli_common.prices_from(args))
    data = result.as_dict()
    data["strategy"] = {"name": strategy.spec.name, "parameters": strategy.params}
    data["input"] = {"file": str(args.file), "format": conversation.format,
                     "messages": len(conversation.messages)}
    data["model_window"] = cli_common.model_window_of(args, conversation)
    paid = paid_and_final(conversation, cli_common.prices_from(args) or DEFAULT_PRICES)
    data["branches"] = paid.as_dict()  # the calls paid beside the final branch this replay numbers
    return cli_common.emit(args, data, f"{args.file}: {conversation.format}, {len(conversation.messages):,} messages, "
                 f"strategy {result.strategy}", replay_table(result, data["model_window"]) + f"\nthe log: {paid.sentence()}")


def replay_table(result: ReplayResult, window: dict | None = None) -> str:
    lines = [f"{'call':>6} {'message':>8} {'sent':>6} {'tokens':>9} {'no compaction':>14} {'summaries':>9}  acted"]
    for c in result.calls:
        lines.append(f"{call_number(c.call):>6} {c.index:>8} {c.messages:>6} {c.tokens:>9,} {c.raw_tokens:>14,} "
                     f"{c.summaries:>9}  {' '.join(c.acted)}{'  OVER WINDOW' if c.over_window else ''}")
    totals = result.totals
    lines += ["", f"calls {totals['calls']:,}, summaries {totals['summaries']:,}, reactive {totals['reactive']:,}, "
              f"compact tool {totals['compact_tool']:,}"]
    lines += [line for line in totals_lines(totals) if line]
    if window is not None:
        lines.append(f"model window {window['tokens']:,} tokens ({window['source']})")
    for own in result.call_windows:
        number = next((call_number(c.call) for c in result.calls if c.index == own.index), None)
        lines.append(f"call {number:,} ran on {own.model}: replayed against its window of {own.tokens:,} tokens")
    if totals["reactive"]:  # the window, not the settings, compacted: say which flag moves it
        lines.append(f"the model window ({totals['model_window_tokens']:,} tokens) was reached: reactive compaction "
                     f"ran {plural(totals['reactive'], 'time')} whatever the settings (--model-window sets the window)")
    return "\n".join(lines)


def _share(value) -> str:
    return "-" if value is None else f"{value:.1%}"


def totals_lines(totals: dict) -> list[str]:
    """The totals a person reads: tokens, what the baseline could really send, cost over the same calls
    on both sides, what the log says the session cost, cache, loss."""
    stop, calls, compared = totals["raw_stop_call"], totals["calls"], totals["compared_calls"]
    baseline = (f"without compaction {totals['raw_tokens_sent']:,}" if stop is None else
                f"without compaction {totals['raw_tokens_sent']:,} before the agent stops at call {stop + 1:,} "
                "(prompt too long)")
    over = f"over all {calls:,} calls" if compared == calls else \
        f"over calls 1-{compared:,}, the ones the agent without compaction could make"
    calibration = totals["calibration"]
    check = totals["cache_model_check"]
    parting = totals["parting_call"]
    exact = ("tokens as the log recorded them at every call" if parting is None and totals["exact_calls"] else
             f"tokens as the log recorded them until call {parting + 1:,}, where the histories part; estimated "
             "after" if totals["exact_calls"] else "")
    recorded = totals["recorded_cost_usd"]
    return [
        f"tokens sent {totals['tokens_sent']:,} ({baseline}), peak context {totals['peak_tokens']:,} tokens",
        "tokens " + (f"calibrated on the log: median error {calibration['median_abs_error']:.1%} over "
                     f"{calibration['calls']:,} calls, {calibration['tokens_per_char']:.3f} per character + "
                     f"{calibration['overhead_tokens']:,} a call" if calibration else "estimated as characters / 4"),
        exact,
        f"cost {over}: US${totals['cost_usd_compared']:,.2f} with compaction, US${totals['raw_cost_usd']:,.2f} "
        f"without (prompt caching, priced at {totals['priced_as']})",
        f"cost of all {calls:,} calls US${totals['cost_usd']:,.2f} with caching, US${totals['cost_usd_no_cache']:,.2f} "
        "without",
        "" if recorded is None else f"what this session cost (its log's run totals, {totals['recorded_cost_basis']}): "
        f"US${recorded:,.2f}; the log gives no call's own usage, so every per-call figure is estimated"
        if totals["recorded_from_totals"] else f"what this session cost (its log's own calls): US${recorded:,.2f}",
        *[f"note: {note}" for note in totals["price_notes"]],
        f"cache hit rate {_share(totals['cache_hit_rate'])}, {plural(totals['cache_breaks'], 'call')} where a layer broke "
        "the cache",
        f"blind references {totals['blind_references']:,}; artifacts still sent at the end "
        f"{_share(totals['artifact_retention'])}; tool output seen whole {_share(totals['tool_output_kept'])}",
        f"recorded context {totals['recorded_context_tokens']:,} tokens; cache model / log cache reads "
        f"{check['ratio']:.2f}" if check and check["ratio"] is not None else "",
    ]


