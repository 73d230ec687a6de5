"""A kernel cell as the loop's per-call records (replay/records.py CallRecord, without the layers'
events: the kernel knows what each layer did at each call, not the records the layers write), so the
two can be compared call by call, and a replay read from either."""

import numpy as np

from compaction.measures.meter import CallMeasures
from compaction.replay.records import CallRecord
from compaction.sweep.kernel.cell import Cell, Shared, blind
from compaction.sweep.kernel.walk import ACTED


def call_records(shared: Shared, cell: Cell) -> list[CallRecord]:
    facts, calls, walk = shared.facts, cell.priced, cell.walk
    _, terms = blind(shared, cell, terms=True)
    tokens_total = np.cumsum(calls.tokens).tolist()
    raw_total = np.cumsum(facts.raw_tokens).tolist()
    found = []
    columns = (shared.context.call_indices, walk.count, calls.chars.tolist(), calls.tokens.tolist(),
               facts.raw_chars.tolist(), facts.raw_tokens.tolist(), walk.acted, calls.summaries.tolist(),
               calls.exact.tolist(), calls.cache_read.tolist(), calls.cache_write.tolist(),
               calls.cache_broken.tolist(), facts.output.tolist(), calls.cost.tolist(), calls.cost_no_cache.tolist(),
               facts.raw_cost.tolist(), facts.raw_runs.tolist(), facts.recorded, calls.compaction_cost.tolist(),
               calls.summary_in.tolist(), calls.summary_out.tolist())
    for call, (index, messages, chars, tokens, raw_chars, raw_tokens, acted, summaries, exact, read, write, broken,
               output, cost, cost_no_cache, raw_cost, raw_runs, recorded, compaction_cost, summary_in,
               summary_out) in enumerate(zip(*columns, strict=True)):
        measures = CallMeasures(recorded=recorded, cache_read=read, cache_write=write, cache_broken=broken,
                                output_tokens=output, cost_usd=cost, cost_usd_no_cache=cost_no_cache, blind=terms[call],
                                compaction_cost_usd=compaction_cost, compaction_input_tokens=summary_in,
                                compaction_output_tokens=summary_out)
        found.append(CallRecord(call=call, index=index, messages=messages, chars=chars, tokens=tokens,
                                raw_chars=raw_chars, raw_tokens=raw_tokens,
                                acted=tuple(name for bit, name in ACTED if acted & bit), summaries=summaries,
                                tokens_total=tokens_total[call], raw_tokens_total=raw_total[call],
                                over_window=tokens > shared.context.window_at(index), measures=measures,
                                raw_cost_usd=raw_cost, raw_runs=raw_runs, exact=exact))
    return found
