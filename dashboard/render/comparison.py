"""Like for like: every comparison of a strategy with no compaction covers the same calls.

Without compaction the history only grows; once it is over the model window the API refuses the call
and the agent stops. Past that call there is nothing to compare with, so the figures set side by side
(tokens, the share saved, the cost) are those of the calls both could make (the totals'
`compared_calls`, `tokens_sent_compared`, `cost_usd_compared`, `raw_tokens_sent`, `raw_cost_usd`), and
the page says where the agent without compaction stops. No Streamlit here.
"""

from compaction.replay import ReplayResult

NOT_COMPARABLE = "n/a past call {call:,}"


def calls_compared(result: ReplayResult) -> int:
    return result.totals["compared_calls"]


def stops(result: ReplayResult) -> bool:
    """Whether the uncompacted agent stops before the session ends."""
    return result.raw_stop_call is not None


def range_label(result: ReplayResult) -> str:
    """'calls 1–155', or 'all 320 calls' when no compaction gets through the whole session."""
    compared, total = calls_compared(result), len(result.calls)
    if compared == total:
        return f"all {total:,} calls"
    return "no call" if compared == 0 else f"calls 1–{compared:,}" if compared > 1 else "call 1"


def whole_label(result: ReplayResult) -> str:
    return f"all {len(result.calls):,} calls"


def stop_headline(result: ReplayResult) -> str:
    """Where the agent without compaction stops, and over which calls the two are compared; and the calls
    on another model than the session's, each held to its own model's window."""
    total = len(result.calls)
    stop = result.raw_stop_call
    others = other_models_sentence(result)
    if stop is None:
        return (f"Without compaction every one of the {total:,} calls fits the model window of "
                f"{result.model_window_tokens:,} tokens: the two are compared over all of them." + others)
    own = {found.index: found for found in result.call_windows}.get(result.calls[stop].index)
    window = f"{own.model}'s window of {own.tokens:,}" if own else f"the model window of {result.model_window_tokens:,}"
    return (f"Without compaction the agent stops at call {stop + 1:,} of {total:,}: its prompt "
            f"({result.calls[stop].raw_tokens:,} tokens with the overhead) is over {window}, and the model's API "
            f"refuses it as too long. Tokens, the share saved and costs are compared over {range_label(result)}, "
            "the calls both could make." + others)


def other_models_sentence(result: ReplayResult) -> str:
    """' Call 21 ran on gpt-5.3-codex-spark (a window of 128,000 tokens): it is replayed against its own model's
    window, the other calls against the session's 272,000.', or '' when every call ran on the session's model."""
    if not result.call_windows:
        return ""
    numbers = {call.index: call.call + 1 for call in result.calls}
    by_model: dict[tuple[str, int], list[int]] = {}
    for found in result.call_windows:
        if found.index in numbers:
            by_model.setdefault((found.model, found.tokens), []).append(numbers[found.index])
    if not by_model:
        return ""
    parts = [f"{_call_list(calls)} ran on {model} (a window of {tokens:,} tokens)"
             for (model, tokens), calls in by_model.items()]
    count = sum(len(calls) for calls in by_model.values())
    return (f" {'; '.join(parts)}: {'it is' if count == 1 else 'each is'} replayed against its own model's window, "
            f"the other calls against the session's {result.model_window_tokens:,}.")


def _call_list(calls: list[int]) -> str:
    shown = ", ".join(f"{number:,}" for number in calls[:6])
    return (f"Call {shown}" if len(calls) == 1 else f"Calls {shown}") + (f" and {len(calls) - 6:,} more" if len(calls) > 6 else "")


def past_stop(result: ReplayResult) -> str | None:
    """What a total without compaction reads past the stop ('n/a past call 155'), None when it never stops."""
    compared = calls_compared(result)
    return NOT_COMPARABLE.format(call=compared) if stops(result) else None


def saved_tokens(result: ReplayResult) -> int:
    totals = result.totals
    return totals["raw_tokens_sent"] - totals["tokens_sent_compared"]


def cost_difference_sentence(result: ReplayResult) -> str:
    """The cost with compaction against without, over the same calls, in one sentence."""
    totals = result.totals
    cost, raw = totals["cost_usd_compared"], totals["raw_cost_usd"]
    over = range_label(result)
    if raw <= 0:
        return f"Over {over}: ${cost:,.2f} with compaction."
    change = cost / raw - 1
    if abs(change) < 0.005:
        return f"Over {over} compaction costs what no compaction costs: ${cost:,.2f}."
    word = "more" if change > 0 else "less"
    return (f"Over {over} compaction costs ${cost:,.2f} against ${raw:,.2f} without: {abs(change):.0%} {word}.")


def saving_and_cost_sentence(pass_saved: float, replay: ReplayResult) -> str:
    """The Pipeline page's headline in one sentence: the one pass's saving, and what the same settings do
    to the cost over the whole session, where a layer that rewrites the history breaks the prompt cache."""
    totals = replay.totals
    over = range_label(replay)
    cost, raw = totals["cost_usd_compared"], totals["raw_cost_usd"]
    saved = totals["saved_share"]
    tokens = f"send {saved:.0%} fewer tokens over {over}" if saved is not None else f"run over {over}"
    breaks = totals["cache_breaks"]
    calls = len(replay.calls)
    start = f"One pass over the loaded conversation saves {pass_saved:.1%} of its characters; over the whole session "
    if cost > raw:
        return (start + f"the same settings {tokens} but cost more, ${cost:,.2f} against ${raw:,.2f} without "
                f"compaction, because {breaks:,} of {calls:,} calls rewrote an earlier part of the history and so "
                "broke the prompt cache (its cheap reads become writes again): see the Replay page.")
    return (start + f"the same settings {tokens} and cost ${cost:,.2f} against ${raw:,.2f} without compaction"
            + (f", although {breaks:,} of {calls:,} calls broke the prompt cache" if breaks else "")
            + " (the Replay page).")
