"""What each call of a replay is whatever the cell: what the log recorded of it and when, the anchor of
the token estimate, its price, its output, and the same session never compacted (the uncompacted side).
Worked out once per replay context, by the loop's own objects (Uncompacted, Billing), in the loop's
order, so they are the loop's figures."""

from dataclasses import dataclass

import numpy as np

from compaction.measures.prices import recorded_parts
from compaction.model.calibration import recorded_context
from compaction.replay.context import ReplayContext
from compaction.replay.uncompacted import Uncompacted
from compaction.sweep.kernel.tariffs import Tariff


@dataclass(frozen=True, eq=False)
class Facts:
    known: np.ndarray  # tokens the log says the whole history held at the call (-1: it does not say)
    known_exact: np.ndarray  # ... and it is what the agent sent, while nothing has changed the history
    anchor_tokens: np.ndarray  # the anchor the estimate measures from at the call: the latest known (-1: none)
    anchor_chars: np.ndarray  # the characters those tokens measured
    output: np.ndarray  # output tokens of the call
    fresh: np.ndarray  # the cache holds nothing of the previous call (the first call, or it expired)
    recorded_read: np.ndarray  # the log's own cache reads and writes of the call (0 without usage)
    recorded_write: np.ndarray
    recorded_cost: np.ndarray  # the call at its recorded reads and writes, at its price
    groups: list[tuple[Tariff, str, np.ndarray]]  # (tariff, lifetime, calls priced so)
    recorded: list[dict | None]  # what the log recorded of each call (CallMeasures.recorded)
    raw_chars: np.ndarray
    raw_tokens: np.ndarray
    raw_runs: np.ndarray
    raw_cost: np.ndarray


def facts_of(context: ReplayContext) -> Facts:
    prepared, billing = context.prepared, context.billing
    usage, times = prepared.recorded.usage, prepared.recorded.timestamps
    model = prepared.token_model
    uncompacted = Uncompacted(prepared, billing, context.window_at, context.from_log)
    calls = context.call_indices
    known, exact, anchor_tokens, anchor_chars, output, fresh = [], [], [], [], [], []
    recorded_read, recorded_write, recorded_cost, recorded = [], [], [], []
    raw = []
    groups: dict[tuple[int, str], tuple[Tariff, str, list[int]]] = {}
    anchor = (-1, -1)
    previous_time = None
    call = 0
    for index in range(len(prepared.messages)):
        if call < len(calls) and calls[call] == index:
            whole = uncompacted.known(index)
            if whole is not None:
                anchor = (whole, uncompacted.context_chars())
            known.append(-1 if whole is None else whole)
            exact.append(whole is not None and index < uncompacted.before)
            anchor_tokens.append(anchor[0])
            anchor_chars.append(anchor[1])
            entry = usage[index] if index < len(usage) else None
            out = entry["output_tokens"] if entry else model.content_tokens(prepared.sizes[index])
            output.append(out)
            price = billing.at(index)
            time = times[index] if index < len(times) else None
            fresh.append(call == 0 or not price.holds(previous_time, time))
            previous_time = time
            recorded.append(None if entry is None else {
                **entry, "model": billing.model_at(index), "context_tokens": recorded_context(entry),
                "cost_usd": billing.recorded_cost(index)})
            if entry is not None:
                _, five, hour, read = recorded_parts(entry)
                recorded_read.append(read)
                recorded_write.append(five + hour)
                recorded_cost.append(price.as_recorded(entry, out))
            else:
                recorded_read.append(0)
                recorded_write.append(0)
                recorded_cost.append(0.0)
            groups.setdefault((id(price.tariff), price.lifetime), (price.tariff, price.lifetime, []))[2].append(call)
            raw.append(uncompacted.call(index, out, time))
            call += 1
        uncompacted.append(index)  # it leaves out the agent's own summaries
    return Facts(_ints(known), np.asarray(exact, dtype=bool), _ints(anchor_tokens), _ints(anchor_chars), _ints(output),
                 np.asarray(fresh, dtype=bool), _ints(recorded_read), _ints(recorded_write),
                 np.asarray(recorded_cost, dtype=np.float64),
                 [(tariff, lifetime, _ints(members)) for tariff, lifetime, members in groups.values()],
                 recorded, _ints([r[0] for r in raw]), _ints([r[1] for r in raw]),
                 np.asarray([r[2] for r in raw], dtype=bool), np.asarray([r[3] for r in raw], dtype=np.float64))


def _ints(values: list) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)
