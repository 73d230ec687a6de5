"""An update of a followed log as one line of text or one JSON object, for `compaction watch`.

Every object has an `event`: "call" (one per model call: its number, line, tokens, growth, cost, and
the tokens and calls left to the agent's compaction with the whole forecast; the same call again with
`"revised": true` where a later line of its response counts more input), "compaction", "restart"
(read again from the start, and why), "note", "skipped" (a line that is not a JSON object), "gone"
(the file was removed), "read" (where a read started and ended, with --reads) and "stopped".
"""

from compaction.live.events import Note
from compaction.live.follower import Gone, Reported, Restarted, Skipped
from compaction.live.forecast import Forecast, range_label
from compaction.live.session import CallUpdate, CompactionUpdate
from compaction.live.tail import Read


def as_json(reported: Reported, unit: str = "line") -> dict:
    """`unit`: what numbers the places in the file, "line" or, in a .json recording read whole, "message"."""
    update = reported.update
    if isinstance(update, CallUpdate):
        call, forecast = update.call, reported.forecast
        found = {"event": "call", "call": call.number, unit: call.line, "model": call.model, "tokens": call.context,
                 "growth": update.growth, "output_tokens": call.output, "cost_usd": round(call.cost_usd, 6),
                 "cost_so_far_usd": round(update.cost_so_far_usd, 6),
                 "first_after_compaction": update.first_after_compaction,
                 "tokens_left": forecast.tokens_left if forecast else None,
                 "calls_left": forecast.calls_left if forecast else None,
                 "forecast": forecast.as_dict() if forecast else None}
        if update.revised:  # the same call again: a later line of its response counted more input
            found["revised"] = True
    elif isinstance(update, CompactionUpdate):
        done = update.compaction
        found = {"event": "compaction", unit: done.line, "trigger": done.trigger, "pre_tokens": done.pre_tokens,
                 "post_tokens": done.post_tokens, "context_before": done.context_before,
                 "calls_before": done.calls_before,
                 "forecast": reported.forecast.as_dict() if reported.forecast else None}
    elif isinstance(update, Restarted):
        return {"event": "restart", "reason": update.reason}
    elif isinstance(update, Note):
        return {"event": "note", unit: update.line, "kind": update.kind, "text": update.text}
    elif isinstance(update, Skipped):
        return {"event": "skipped", "line": update.line, "reason": update.reason}
    elif isinstance(update, Gone):
        return {"event": "gone"}
    else:
        raise TypeError(f"no JSON for {update!r}")
    if reported.what_if is not None:
        found["what_if"] = reported.what_if.as_dict()
    return found


def read_json(read: Read) -> dict:
    return {"event": "read", "read": read.number, "start": read.start, "end": read.end, "lines": read.lines,
            "partial_bytes": read.partial, "restarted": read.restarted}


def calls_words(forecast: Forecast) -> str:
    """'9 calls left (80 %: 4-21)', 'before the next call', or why the calls cannot be counted."""
    if forecast.calls_left is None:
        return "calls left known from the second call on" if forecast.growth_per_call is None \
            else "no call left to count: the context is not growing"
    if forecast.calls_left == 1:
        return "before the next call"
    spread, label = forecast.calls_left_range, range_label(forecast)
    within = "" if spread is None else f" ({label}: {spread[0]:,}-{spread[1]:,})" if spread[1] is not None \
        else f" ({label}: {spread[0]:,} or more)"
    return f"{forecast.calls_left:,} calls left{within}"


def distance(forecast: Forecast | None) -> str:
    """'<the rule's label> compacts at 167,000: 18,790 tokens to go, 9 calls left (80 %: 4-21)', or, past its
    threshold, that it compacts before the next call."""
    if forecast is None or forecast.tokens_now is None or forecast.tokens_left is None:
        return "no call yet"
    if forecast.tokens_left <= 0:
        return (f"{forecast.label} compacts at {forecast.threshold:,}: the context is already past it by "
                f"{-forecast.tokens_left:,} tokens, so it compacts before the next call")
    return f"{forecast.label} compacts at {forecast.threshold:,}: {forecast.tokens_left:,} tokens to go, " \
           f"{calls_words(forecast)}"


def next_compaction(forecast: Forecast | None) -> str:
    """What the next compaction will drop or summarise, and what it keeps, as the JSON's `action` says."""
    if forecast is None or not forecast.action:
        return ""
    kept = f" ({forecast.kept_tokens:,} tokens carried on)" if forecast.kept_tokens else ""
    return f"  | next compaction {forecast.action}{kept}"


def as_text(reported: Reported, unit: str = "line") -> str:
    update = reported.update
    if isinstance(update, CallUpdate):
        call = update.call
        growth = "" if update.growth is None else f"{update.growth:+,}"
        if update.first_after_compaction:
            growth += " (first call after the compaction)"
        if update.revised:
            growth += " (revised: a later line of the response counts more input)"
        line = (f"call {call.number:,}  {unit} {call.line:,}  {call.context:,} tokens  {growth}".rstrip()
                + f"  | {distance(reported.forecast)}  | ${update.cost_so_far_usd:,.4f} so far"
                + next_compaction(reported.forecast))
        if reported.what_if is not None:
            line += f"  | what if {distance(reported.what_if)}"
        return line
    if isinstance(update, CompactionUpdate):
        done = update.compaction
        counted = f"; {done.pre_tokens:,} tokens by the agent's count" if done.pre_tokens else ""
        kept = reported.forecast.tokens_now if reported.forecast else None
        start = f"the forecast starts again from about {kept:,} tokens kept" if kept else "the forecast starts again"
        return f"compaction at {unit} {done.line:,} ({done.trigger or 'trigger not recorded'}{counted}): {start}"
    if isinstance(update, Restarted):
        return f"read again from the start: {update.reason}"
    if isinstance(update, Note):
        return f"note, {unit} {update.line:,}: {update.text}"
    if isinstance(update, Skipped):
        return f"line {update.line:,} skipped: {update.reason}"
    if isinstance(update, Gone):
        return "the file is gone; waiting for it to come back"
    raise TypeError(f"no text for {update!r}")
