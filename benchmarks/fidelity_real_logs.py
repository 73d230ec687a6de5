"""How close the replay comes to what real Claude Code sessions did, on public logs kept outside the project.

    .venv/bin/python benchmarks/fidelity_real_logs.py DIR [--json] [--only-compacted]

For every main Claude Code session under DIR (subagent files are left out: they are checked through
their parents), from the replay's own JSON (`replay --json` computes the same):
- recorded: `totals.recorded_cost_usd` against a plain reading of the raw lines priced by
  benchmarks/recorded_cost.py (must agree within 1 %); whether every call's `recorded.model` is filled;
- off: the tutorial's pipeline with every setting at its maximum (compaction off), its cost against the
  recorded cost over the same calls (those whose usage the log recorded), for logs without a compaction of
  their own (target: within 7 %). Those calls send what the agent sent, so they are billed at the log's
  own reads and writes; `alone` is the same replay with `from_log=False`, the token and cache models
  without the log's counts: how far the models come where the log cannot help;
- synthetic: for logs with responses Claude Code wrote itself (model `<synthetic>`: no API call), the
  replay's calls against the real responses of the plain reading (must be equal), and the cost of every
  call with compaction off against the recorded cost, both before the log's first compaction (target:
  within 7 %; logs whose every real call recorded its usage);
- kept: on every log, what `--strategy claude-code` (its defaults; the loop's window the log's, as the
  preset's) changed before the log's own first compaction, or anywhere in a log without one: outputs saved,
  results cleared, compactions more than 3 calls before the log's (target: nothing);
- preset: for logs Claude Code auto-compacted, `--strategy claude-code` at its defaults, at EVERY one of
  the log's compactions (replay/fidelity.py pairs them in order): the call the log compacted before and
  the call the preset did (target: within 3 calls), the tokens of the first call after against the
  recorded ones (target: within 10 %), and the median error of its per-call tokens against the recorded
  context before the first boundary (target: 3 %); and the live forecast's error (forecast_real_logs.py: the
  `calls_left` of `compaction watch --json` less the calls that were left) 20, 10 and 5 calls before it
  (target: within max(3, 30 %) of the truth).
The summary counts them by version (the rules changed with it: measures in the preset's notes), then on two
two parts of the files split by repository (holdout.py: the part the rules are tuned on and the held-out part),
so that a rule fitted to some logs shows on the others.
"""

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # recorded_cost.py, beside this script

from forecast_calibration import BEFORE, close  # noqa: E402
from forecast_real_logs import points  # noqa: E402
from holdout import PARTS, part_of  # noqa: E402
from recorded_cost import plain_reading  # noqa: E402

from compaction import Settings, load_conversation, prepare, replay  # noqa: E402
from compaction.agents.claude_code.preset import log_window  # noqa: E402
from compaction.errors import ConversationError  # noqa: E402
from compaction.model.settings import LIMITS  # noqa: E402
from compaction.replay.fidelity import fidelity  # noqa: E402

OFF = Settings(**{name: high for name, (_, high) in LIMITS.items() if name not in ("keep_head",
                                                                                 "reactive_keep_last")})
# the rules that changed (the preset's notes): what each row of the summary groups
SERIES = (((1, 0, 0), "1.0"), ((2, 0, 0), "2.0"), ((2, 1, 0), "2.1.0-2.1.20"), ((2, 1, 21), "2.1.21-2.1.91"),
          ((2, 1, 92), "2.1.92+"))


def series(version: str | None) -> str:
    parts = tuple(int(p) for p in version.split("-")[0].split(".")[:3]) if version else None
    found = "-"
    for start, name in SERIES:
        if parts is not None and parts >= start:
            found = name
    return found


def check(path: Path) -> dict | None:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return {"file": path.name, "error": str(error)}
    if conversation.format != "claude-code" or not conversation.has_usage:
        return None
    row = {"file": path.name, "path": str(path), "version": conversation.metadata.get("agent_version"),
           "calls": sum(1 for m in conversation.messages if m["role"] == "assistant")}
    off = replay(conversation, OFF, keep_histories=False, model_window_tokens=10_000_000).as_dict()
    totals = off["totals"]
    row["recorded"] = totals["recorded_cost_usd"]
    plain = plain_reading(path)
    row["plain"] = plain["branch_cost"]
    row["real_responses"], row["synthetic"] = plain["branch_real"], plain["branch_synthetic"]
    row["models_filled"] = all(c["recorded"]["model"] for c in off["calls"] if c.get("recorded"))
    boundaries = conversation.metadata.get("compact_boundaries") or []
    row["own_compactions"] = len(boundaries)
    # over the same calls as the recorded cost: a log may record no usage for some (a proxied model)
    row["off"] = sum(c["cost_usd"] for c in off["calls"] if c.get("recorded")) if not boundaries else None
    # every call the replay makes, before the log's first compaction (after it, compaction off sends more)
    first = min((b["index"] for b in boundaries), default=None)
    before = [c for c in off["calls"] if first is None or c["index"] < first]
    row["off_all_calls"] = sum(c["cost_usd"] for c in before)
    row["recorded_before"] = sum(c["recorded"]["cost_usd"] or 0 for c in before if c.get("recorded"))
    row["unrecorded_calls"] = totals["calls"] - totals["recorded_calls"]
    # the token and cache models alone, as if the log had recorded nothing but their fit
    alone = replay(conversation, OFF, keep_histories=False, model_window_tokens=10_000_000, from_log=False).as_dict()
    row["models_alone"] = sum(c["cost_usd"] for c in alone["calls"] if c.get("recorded")) if not boundaries else None
    prepared = prepare(conversation)
    preset = replay(prepared, strategy="claude-code", keep_histories=False, model_window_tokens=log_window(prepared))
    first = min((b["index"] for b in boundaries), default=None)
    # a compaction up to 3 calls before the log's own is the target's tolerance, not a removal
    first_call = next((c.call for c in preset.calls if first is not None and c.index > first), len(preset.calls))
    row["changed_before"] = {action: sum(1 for c in preset.calls if action in c.acted and c.index < (first or 1 << 60)
                                         and (action in ("persist", "microcompact") or c.call < first_call - 3))
                             for action in ("persist", "microcompact", "auto_compact", "reactive")}
    if any(b.get("trigger") == "auto" for b in boundaries):
        found = fidelity(preset)
        row["compactions"] = [pair.as_dict() for pair in found.pairs] if found else []
        row["preset_compactions"] = len(found.strategy_calls) if found else 0
        row["estimate_error"] = found.estimate_error if found else None
        add_forecast_errors(path, row["compactions"])
    return row


def add_forecast_errors(path: Path, pairs: list[dict]) -> None:
    """Each pair's `forecast_errors`: {calls before: calls_left less the truth (None: no count)}, from the
    live follower on the same log; a compaction it did not see (1.0.x logs write no boundary) gets none."""
    with tempfile.TemporaryDirectory() as folder:
        rows = points(path, Path(folder), every=True)
    by_call: dict[int, dict] = {}
    by_rank: dict[int, dict] = {}
    for row in rows:
        if row["before"] in BEFORE:
            error = None if row["calls_left"] is None else row["calls_left"] - row["before"]
            by_call.setdefault(row["calls_before"], {})[row["before"]] = error
            by_rank.setdefault(row["compaction"], {})[row["before"]] = error
    # the same call where the follower counts the calls as the importer does; else the same rank (a rewound
    # branch's calls are counted by the follower, paid for as they were)
    for rank, pair in enumerate(pairs, 1):
        found = by_call.get(pair["log_call"]) if pair["log_call"] is not None else None
        pair["forecast_errors"] = found if found is not None else by_rank.get(rank)


def ratio(a, b) -> str:
    return f"{a / b:.3f}" if a is not None and b else "-"


def share(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1%}"


def print_logs(rows: list[dict]) -> None:
    print(f"{'file':<40} {'version':>8} {'calls':>5} {'recorded $':>10} {'plain':>6} {'off/rec':>7} {'alone':>6} "
          f"{'synth':>5} {'est err':>7}")
    for row in rows:
        if "error" in row:
            print(f"{row['file'][:40]:<40} ERROR {row['error'][:80]}")
            continue
        print(f"{row['file'][:40]:<40} {row['version'] or '-':>8} {row['calls']:>5} {row['recorded'] or 0:>10.2f} "
              f"{ratio(row['recorded'], row['plain']):>6} {ratio(row['off'], row['recorded']):>7} "
              f"{ratio(row['models_alone'], row['recorded']):>6} {row['synthetic']:>5} "
              f"{'-' if row.get('estimate_error') is None else format(row['estimate_error'], '.1%'):>7}")


def print_compactions(rows: list[dict]) -> None:
    print(f"\n{'file':<40} {'version':>8} {'#':>2} {'trig':>6} {'log call':>8} {'preset':>6} {'apart':>5} "
          f"{'pre':>8} {'log after':>9} {'preset after':>12} {'error':>7} {'forecast 20/10/5':>16}")
    for row in rows:
        for n, pair in enumerate(row.get("compactions", ()), 1):
            print(f"{row['file'][:40]:<40} {row['version'] or '-':>8} {n:>2} {pair['trigger'] or '-':>6} "
                  f"{pair['log_call'] if pair['log_call'] is not None else '-':>8} "
                  f"{pair['strategy_call'] if pair['strategy_call'] is not None else 'never':>6} "
                  f"{pair['calls_apart'] if pair['calls_apart'] is not None else '-':>5} "
                  f"{pair['pre_tokens'] or '-':>8} {pair['log_after_tokens'] or '-':>9} "
                  f"{pair['strategy_after_tokens'] or '-':>12} {share(pair['after_error']):>7} "
                  f"{forecast_words(pair.get('forecast_errors')):>16}")


def forecast_words(errors: dict | None) -> str:
    """'-2/+4/+8': the forecast's error 20, 10 and 5 calls before ('-' where it has none)."""
    if not errors:
        return "-"
    return "/".join("-" if errors.get(d) is None else f"{errors[d]:+d}" for d in BEFORE)


def part(row: dict) -> str:
    """The part of the split by repository the log is in (holdout.py)."""
    return part_of(Path(row.get("path") or row["file"]))


def summary_by_version(rows: list[dict], group_of=lambda row: series(row["version"]),
                       order: tuple[str, ...] = tuple(name for _, name in SERIES) + ("-",)) -> list[dict]:
    """Per series of versions (or `group_of`): the log's auto compactions, those the preset matched within 3
    calls, those whose first call after it carried within 10 % of the recorded context (of those with a
    call after)."""
    groups: dict[str, dict] = {}
    for row in rows:
        for rank, pair in enumerate(row.get("compactions", ())):
            if pair["trigger"] != "auto" or pair["log_call"] is None:
                continue
            group = groups.setdefault(group_of(row), {"logs": set(), "compactions": 0, "within_3": 0,
                                                                "later": 0, "later_within_3": 0,
                                                                "after_known": 0, "after_within_10": 0,
                                                                "forecast_points": 0, "forecast_near": 0,
                                                                "forecast_errors": {d: [] for d in BEFORE}})
            group["logs"].add(row["file"])
            group["compactions"] += 1
            within = pair["calls_apart"] is not None and abs(pair["calls_apart"]) <= 3
            group["within_3"] += within
            group["later"] += rank > 0
            group["later_within_3"] += rank > 0 and within
            if pair["after_error"] is not None:
                group["after_known"] += 1
                group["after_within_10"] += abs(pair["after_error"]) <= 0.10
            for distance, error in (pair.get("forecast_errors") or {}).items():
                group["forecast_points"] += 1
                group["forecast_near"] += error is not None and close(distance + error, distance)
                group["forecast_errors"][distance].append(error)
    return [{"series": name, **{k: (len(v) if k == "logs" else v) for k, v in groups[name].items()}}
            for name in order if name in groups]


def print_summary(rows: list[dict]) -> None:
    good = [r for r in rows if "error" not in r]
    print(f"\n{len(good)} logs; recorded within 1 % of the plain reading: "
          f"{sum(1 for r in good if r['plain'] and abs(r['recorded'] / r['plain'] - 1) <= 0.01)}; models filled: "
          f"{sum(r['models_filled'] for r in good)}")
    alones = [r["models_alone"] / r["recorded"] for r in good if r["models_alone"] is not None and r["recorded"]]
    if alones:
        print(f"the models alone / recorded on the same logs: median {statistics.median(alones):.3f}, "
              f"range {min(alones):.3f}-{max(alones):.3f}, within 7 %: {sum(abs(x - 1) <= 0.07 for x in alones)}")
    offs = [r["off"] / r["recorded"] for r in good if r["off"] is not None and r["recorded"]]
    if offs:
        print(f"off / recorded on {len(offs)} logs without a compaction of their own: median {statistics.median(offs):.3f}, "
              f"range {min(offs):.3f}-{max(offs):.3f}, within 7 %: {sum(abs(x - 1) <= 0.07 for x in offs)}")
    synthetic = [r for r in good if r["synthetic"]]
    if synthetic:
        equal = sum(1 for r in synthetic if r["calls"] == r["real_responses"])
        # where every real call recorded its usage (else the recorded cost itself is short)
        costs = [r["off_all_calls"] / r["recorded_before"] for r in synthetic if r["recorded_before"]
                 and r["calls"] - r["unrecorded_calls"] >= r["real_responses"]]
        print(f"{len(synthetic)} logs with <synthetic> responses ({sum(r['synthetic'] for r in synthetic)} of them): "
              f"calls = real responses in {equal}"
              + (f"; every call's cost with compaction off / recorded (before the log's first compaction) on "
                 f"{len(costs)} whose every call recorded its usage: median "
                 f"{statistics.median(costs):.3f}, range {min(costs):.3f}-{max(costs):.3f}, within 7 %: "
                 f"{sum(abs(x - 1) <= 0.07 for x in costs)}" if costs else ""))
    changed = [r for r in good if any(r["changed_before"].values())]
    print(f"the preset changed what the agent kept (before the log's first compaction) in {len(changed)} of "
          f"{len(good)} logs" + "".join(f"\n  {r['file'][:40]} {r['version']}: " + ", ".join(
              f"{k} {v}" for k, v in r["changed_before"].items() if v) for r in changed))
    print(f"\n{'versions':<14} {'logs':>4} {'auto compactions':>16} {'within 3 calls':>14} {'of the later ones':>17} "
          f"{'first call after within 10 %':>28} {'forecast within max(3, 30 %)':>28} {'median error 20/10/5':>20}")
    for group in summary_by_version(good) + summary_by_version(good, part, PARTS):
        print(f"{group['series']:<14} {group['logs']:>4} {group['compactions']:>16} {group['within_3']:>14} "
              f"{group['later_within_3']:>10} of {group['later']:>3} {group['after_within_10']:>20} of "
              f"{group['after_known']:>4} {group['forecast_near']:>20} of {group['forecast_points']:>4} "
              f"{median_errors(group['forecast_errors']):>20}")


def median_errors(errors: dict) -> str:
    """The median of the forecast's errors at 20, 10 and 5 calls before ('-' without any); no count (a
    session not growing) counts as the largest error."""
    found = []
    for distance in BEFORE:
        known = [e if e is not None else 1 << 30 for e in errors[distance]]
        found.append("-" if not known else "none" if statistics.median_low(known) == 1 << 30
                     else f"{statistics.median_low(known):+d}")
    return "/".join(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only-compacted", action="store_true", help="only the logs that compacted themselves")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.folder.rglob("*.jsonl") if "subagents" not in p.parts
                   and not p.name.startswith("agent-")
                   and (not args.only_compacted or b'"isCompactSummary":true' in p.read_bytes()))
    rows = [row for path in files if (row := check(path)) is not None]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print_logs(rows)
    print_compactions(rows)
    print_summary(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
