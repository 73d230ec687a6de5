"""One truth per figure, checked over real public agent logs (kept apart: they are not ours to commit).

    .venv/bin/python benchmarks/one_truth_real_logs.py DIR [--json]

For every session file under DIR whose log holds a compaction of its own (Claude Code main sessions,
Codex rollouts, ...; subagent files skipped), two checks:
- as recorded: the replay of the log's own compactions sends, at every call the log records, the tokens
  it recorded at the cost it recorded; the compaction calls the log does not record (the agent's summary
  call) are the separate part `compaction_calls_cost_usd`, so `cost_usd` less that part is within 1 % of
  `recorded_cost_usd`. A log that leaves calls without usage (an API error's text Claude Code wrote
  itself, a proxy writing zeros) has them estimated: `unrecorded_calls_cost_usd`, and the three parts
  add up to `cost_usd`;
- idle: every strategy at parameters where it cannot act (IDLE, tests/engine/peer_params.py), under a
  window no call reaches, sends at every call what no compaction sends: its `tokens_sent` and `cost_usd`
  are no compaction's (`raw_tokens_sent`, `raw_cost_usd`), call by call;
- regime: the pipeline in the agent's own regime (no snip, no placeholder, CONTEXT_LIMIT read off the
  replay: compaction/replay/regime.py) first summarises at the call where the agent first compacted
  itself: the calls between the two (0: the same call), beside the token model's conversion of the
  agent's count (the limit Tune used before).
Prints one row per file and the totals; exits 1 when an as-recorded or idle check fails.
"""

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the idle parameters the property test uses

from compaction.errors import ConversationError  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.importers.formats import suffixes  # noqa: E402
from compaction.model.history import prepare  # noqa: E402
from compaction.model.settings import LIMITS, Settings  # noqa: E402
from compaction.replay import regime_context_limit, replay  # noqa: E402
from compaction.replay.lookups import first_boundary_index  # noqa: E402
from compaction.strategies import build, compaction_point  # noqa: E402
from dashboard.render.tune_axes import Converter  # noqa: E402
from tests.engine.peer_params import IDLE  # noqa: E402

TOLERANCE = 0.01
WIDE = 1_000_000_000  # a model window no call reaches: nothing is compacted reactively
OFF = Settings(**{name: high for name, (low, high) in LIMITS.items() if name not in ("keep_head", "reactive_keep_last")})


def as_recorded(prepared) -> dict:
    result = replay(prepared, strategy="as-recorded", keep_histories=False)
    totals = result.totals
    off_calls = [c.call for c in result.calls if c.measures.recorded and (
        c.tokens != c.measures.recorded["context_tokens"]
        or abs(c.measures.cost_usd - c.measures.compaction_cost_usd - c.measures.recorded["cost_usd"]) > 1e-9)]
    recorded = totals["recorded_cost_usd"] or 0.0
    calls_cost = totals["cost_usd"] - totals["compaction_calls_cost_usd"]
    ratio = calls_cost / recorded if recorded else None
    unrecorded = totals["calls"] - totals["recorded_calls"]
    # the three parts add up: what the log records, the calls it records nothing for, the compaction calls
    parts = abs(calls_cost - totals["unrecorded_calls_cost_usd"] - recorded) <= 1e-6 * max(recorded, 1)
    within = ratio is not None and abs(ratio - 1) <= TOLERANCE
    return {"calls": totals["calls"], "unrecorded_calls": unrecorded, "cost_usd": totals["cost_usd"],
            "compaction_calls_cost_usd": totals["compaction_calls_cost_usd"],
            "unrecorded_calls_cost_usd": totals["unrecorded_calls_cost_usd"], "recorded_cost_usd": recorded,
            "ratio": ratio, "within": within, "calls_off_the_log": off_calls,
            # a log that records every call must agree within 1 %; one that leaves calls out, call for call
            "agrees": not off_calls and parts and (within or unrecorded > 0)}


def idle(prepared) -> dict:
    """{strategy: (tokens_sent, raw_tokens_sent, cost_usd, raw_cost_usd, whether it acted)} for each one
    whose record differs from no compaction's somewhere, or acted."""
    off = {}
    for name, params in IDLE.items():
        if name == "as-recorded":
            continue  # it acts where the log compacted: checked above
        result = replay(prepared, OFF, strategy=build(name, params), model_window_tokens=WIDE, keep_histories=False)
        acted = any(c.acted for c in result.calls)
        same = all(c.tokens == c.raw_tokens and c.measures.cost_usd == c.raw_cost_usd for c in result.calls)
        if acted or not same:
            t = result.totals
            off[name] = (t["tokens_sent"], t["raw_tokens_sent"], t["cost_usd"], t["raw_cost_usd"], acted)
    return off


def regime(prepared) -> dict | None:
    """Calls between the pipeline's first summary and the agent's first compaction, at the limit read off
    the replay and at the token model's conversion of the agent's count; None where the log gives no
    call on both sides of it."""
    results = sum(1 for m in prepared.messages for b in (m.get("content") or [])
                  if isinstance(b, dict) and b.get("type") == "tool_result")
    settings = Settings(max_messages=max(len(prepared.messages) + 1, 50), keep_recent=max(results, 3))
    limit = regime_context_limit(prepared, settings)
    point = compaction_point(prepared)
    if limit is None:
        return None
    boundary = first_boundary_index(prepared)

    def apart(context_limit: int) -> int | None:
        calls = replay(prepared, settings.replace(context_limit=context_limit), keep_histories=False).calls
        ours = next((c.call for c in calls if "L4" in c.acted), None)
        agents = next(c.call for c in calls if c.index > boundary)
        return None if ours is None else ours - agents

    converted = Converter(prepared.token_model, prepared.overhead).chars("context_limit", point) if point else None
    return {"limit": limit, "apart": apart(limit), "converted_apart": apart(converted) if converted else None}


CHECKS = ("as_recorded", "idle", "regime")


def check(path: Path, root: Path, checks: tuple[str, ...] = CHECKS) -> dict | None:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return {"file": str(path.relative_to(root)), "error": str(error)}
    if not conversation.metadata.get("compact_boundaries") or not conversation.has_usage:
        return None
    prepared = prepare(conversation)
    row = {"file": str(path.relative_to(root)), "format": conversation.format,
           "compactions": len(conversation.metadata["compact_boundaries"])}
    return row | {"as_recorded": as_recorded(prepared),  # always: the rows are its figures
                  "idle_off": idle(prepared) if "idle" in checks else {},
                  "regime": regime(prepared) if "regime" in checks else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--checks", default=",".join(CHECKS),
                        help="which checks besides as recorded: idle, regime (comma-separated; idle is the slow one)")
    args = parser.parse_args(argv)
    checks = tuple(name.strip() for name in args.checks.split(",") if name.strip())
    files = sorted(p for p in args.folder.rglob("*") if p.suffix in suffixes() and p.is_file()
                   and "subagents" not in p.parts)
    rows = [row for path in files if (row := check(path, args.folder, checks))]
    good = [r for r in rows if "error" not in r]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'file':<52} {'format':<12} {'cmp':>3} {'calls':>5} {'unrec':>5} {'as rec. $':>9} {'summ. $':>8} "
              f"{'unrec $':>8} {'log $':>8} {'ratio':>6}  idle strategies off")
        for row in good:
            a = row["as_recorded"]
            flag = "" if a["agrees"] else f"  DIFFERS at calls {a['calls_off_the_log'][:5]}"
            print(f"{row['file'][-52:]:<52} {row['format']:<12} {row['compactions']:>3} {a['calls']:>5} "
                  f"{a['unrecorded_calls']:>5} {a['cost_usd']:>9.2f} {a['compaction_calls_cost_usd']:>8.2f} "
                  f"{a['unrecorded_calls_cost_usd']:>8.2f} {a['recorded_cost_usd']:>8.2f} {a['ratio'] or 0:>6.3f}  "
                  f"{', '.join(row['idle_off']) or '-'}{flag}")
    whole = [r for r in good if not r["as_recorded"]["unrecorded_calls"]]
    worst = max((abs(r["as_recorded"]["ratio"] - 1) for r in whole if r["as_recorded"]["ratio"]), default=0.0)
    failed = [r for r in good if not r["as_recorded"]["agrees"]]
    idle_off = [r for r in good if r["idle_off"]]
    print(f"{len(good)} files with compactions of their own ({len(rows) - len(good)} unreadable); as recorded less its "
          f"compaction calls within {TOLERANCE:.0%} of the log: {sum(r['as_recorded']['within'] for r in good)} of "
          f"{len(good)}, {sum(r['as_recorded']['within'] for r in whole)} of the {len(whole)} that record every call "
          f"(worst {worst:.2%}); the others off by calls the log records no usage for, and equal to it call for call "
          f"on the rest: {sum(r['as_recorded']['agrees'] for r in good if r not in whole)} of {len(good) - len(whole)}; "
          + (f"idle strategies sending what no compaction sends: {len(good) - len(idle_off)} of {len(good)}"
             if "idle" in checks else "idle: not run"),
          file=sys.stderr)
    if "regime" not in checks:
        return 1 if failed or idle_off else 0
    regimes = [r["regime"] for r in good if r["regime"] and r["regime"]["apart"] is not None]
    converted = [r["regime"]["converted_apart"] for r in good if r["regime"] and r["regime"]["converted_apart"] is not None]
    print(f"the agent's regime, first summary at the agent's own call: {sum(r['apart'] == 0 for r in regimes)} of "
          f"{len(regimes)} (worst {max((abs(r['apart']) for r in regimes), default=0)} calls apart); through the token "
          f"model: {sum(a == 0 for a in converted)} of {len(converted)} (worst {max(map(abs, converted), default=0)})",
          file=sys.stderr)
    return 1 if failed or idle_off else 0


if __name__ == "__main__":
    sys.exit(main())
