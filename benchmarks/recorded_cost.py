"""What each Claude Code log's calls cost at their own models' prices, checked against a plain reading.

    .venv/bin/python benchmarks/recorded_cost.py DIR [--json]

For every Claude Code file under DIR (*.jsonl, subagent files included), two figures:
- ours: the file loaded with the project's loader, its per-response usage priced by
  compaction.measures.prices.recorded_cost;
- plain: the raw lines read again without the importers or the pricing code: assistant lines grouped
  by message.id (main-thread lines; every line for a subagent's own file), the LAST line's usage of
  each, the cache writes split by usage.cache_creation, priced from the same table's figures with an
  arithmetic written here.
  The plain reading follows the session's branch on its own (from the last message line back to the
  root by parentUuid; from a chain of hook progress lines naming calls made after the line it hangs off,
  the last message line written before the chain began), since the loader keeps the branch the session
  ended on, not rewound ones.
They must agree within 1 % (exit status 1 otherwise). The last two columns are every response of the
file, rewound branches included: what the account was billed, beyond what the session shows. A line
without token counts (proxied models write some) does not replace the counts of the response's
earlier line. The logs stay outside the repository.
"""

import argparse
import bisect
import json
import sys
from pathlib import Path

from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.measures.cost import DEFAULT_PRICES
from compaction.measures.prices import PRICE_TABLE, recorded_cost

TOLERANCE = 0.01
FIGURES = {row.family: row for row in PRICE_TABLE}  # the numbers only; the matching below is its own


def _minor_version(token: str) -> bool:
    return token.isdigit() and len(token) <= 2  # "5" in claude-opus-4-5; a date is 8 digits


def plain_price(model: str) -> tuple[float, float, float, float, float] | None:
    """(input, 5-minute write, 1-hour write, read, output) per million for a Claude model id, by the
    longest family the id starts with followed by '-' or nothing; None when no family fits."""
    if model == "<synthetic>":
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    fits = [family for family in FIGURES if model == family or (
        model.startswith(family + "-") and not _minor_version(model[len(family) + 1:].split("-")[0]))]
    if not fits:
        return None
    row = FIGURES[max(fits, key=len)]
    return (row.input, row.cache_write_5m, row.cache_write_1h, row.cache_read, row.output)


def _counts(message: dict) -> dict | None:
    usage = message.get("usage")
    return usage if isinstance(usage, dict) and any(isinstance(usage.get(k), int) and usage[k] for k in (
        "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")) else None


def _spine_ids(lines: list[dict]) -> set[str]:
    """message.id of the assistant lines on the path from the last message line back to the root
    (parentUuid, or logicalParentUuid across a compaction; a parent not in the file, or a 1.0.x summary
    with no parent: the line written before): the branch a rewound session ended on. Every kept response
    has a line on it."""
    by_uuid = {line["uuid"]: n for n, line in enumerate(lines) if isinstance(line.get("uuid"), str)}
    ends = [n for n, line in enumerate(lines) if line.get("type") in ("user", "assistant")
            or line.get("subtype") == "compact_boundary"]
    messages = [n for n, line in enumerate(lines) if line.get("type") in ("user", "assistant")]
    ids: set[str] = set()
    at, seen = (ends[-1] if ends else None), set()
    while at is not None and at not in seen:
        seen.add(at)
        line = lines[at]
        if line.get("type") == "assistant" and isinstance(line.get("message"), dict):
            ids.add(line["message"].get("id"))
        parent = line.get("parentUuid") or line.get("logicalParentUuid")
        if line.get("type") == "progress" and (first := _turn_beside(lines, at, by_uuid)) is not None:
            # 2.1.7x writes a turn's hook progress after the turn, chained from its first call line, while the
            # turn went on beside the chain: the walk goes on from the turn's last line
            at = messages[bisect.bisect_left(messages, first) - 1]
        elif "parentUuid" not in line:
            at = at - 1 if at else None  # a file without the tree: lines follow each other
        elif parent is None and line.get("isCompactSummary") is True and at:
            at -= 1  # 1.0.x writes no compact_boundary: the summary's new root continues the line before it
        elif parent is None:
            at = None
        else:
            at = by_uuid.get(parent, at - 1 if at else None)
    return ids


def _turn_beside(lines: list[dict], at: int, by_uuid: dict[str, int]) -> int | None:
    """The first line of the chain of progress lines that line `at` ends, when the chain hangs off a message
    line M and names (toolUseID) a call made by a line written after M and before the chain began: the turn
    went on beside the chain."""
    named = set()
    while True:
        named.add(lines[at].get("toolUseID"))
        parent = by_uuid.get(lines[at].get("parentUuid"))
        if parent is None or lines[parent].get("type") not in ("user", "assistant", "progress"):
            return None
        if lines[parent].get("type") != "progress":
            break
        at = parent
    made = {block.get("id") for k in range(parent + 1, at) if lines[k].get("type") == "assistant"
            for block in _blocks(lines[k]) if block.get("type") == "tool_use"}
    return at if named & made else None


def _blocks(line: dict) -> list[dict]:
    content = line["message"].get("content") if isinstance(line.get("message"), dict) else None
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def _price(message: dict) -> float:
    """US$ of one response: uncached input, writes split by usage.cache_creation (the rest 5-minute),
    reads, output; a model without a family at the default settings' prices."""
    usage = _counts(message) or {}
    split = usage.get("cache_creation") if isinstance(usage.get("cache_creation"), dict) else {}
    created = usage.get("cache_creation_input_tokens") or 0
    hour = split.get("ephemeral_1h_input_tokens") or 0
    counts = (usage.get("input_tokens") or 0, created - hour, hour, usage.get("cache_read_input_tokens") or 0,
              usage.get("output_tokens") or 0)
    model = message.get("model") or ""
    price = plain_price(model)
    if price is None:
        p = DEFAULT_PRICES
        price = (p.input, p.input * p.cache_write, p.input * p.cache_write_1h, p.input * p.cache_read, p.output)
    return sum(n * each for n, each in zip(counts, price, strict=True)) / 1_000_000


def plain_reading(path: Path) -> dict:
    lines = []
    for raw in path.read_bytes().splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if isinstance(line, dict):
            lines.append(line)
    assistant = [line for line in lines if line.get("type") == "assistant" and isinstance(line.get("message"), dict)]
    main = [line for line in assistant if line.get("isSidechain") is not True]
    last: dict[str, dict] = {}  # message.id -> the message of its last line that carries token counts
    models: dict[str, str] = {}  # message.id -> model, of every response (with counts or not)
    for line in main or assistant:  # a subagent's own file is sidechain lines only
        message = line["message"]
        key = message.get("id") or line.get("requestId")
        if _counts(message) is not None:
            last[key or f"line{len(last)}"] = message
        if key:
            models[key] = message.get("model") or ""
    kept = _spine_ids(lines if not main else [line for line in lines if line.get("isSidechain") is not True])
    branch = [message for key, message in last.items() if key in kept]
    synthetic = sum(1 for key, model in models.items() if key in kept and model == "<synthetic>")
    return {"responses": len(last), "branch_responses": len(branch), "cost": sum(map(_price, last.values())),
            "branch_cost": sum(map(_price, branch)), "branch_synthetic": synthetic,
            "branch_real": sum(1 for key, model in models.items() if key in kept and model != "<synthetic>")}


def check(path: Path, root: Path) -> dict | None:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return {"file": str(path.relative_to(root)), "error": str(error)}
    if conversation.format != "claude-code":
        return None
    ours = recorded_cost(conversation.usage, DEFAULT_PRICES)
    plain = plain_reading(path)
    expected = plain["branch_cost"]
    ratio = ours.total_usd / expected if expected else (1.0 if not ours.total_usd else float("inf"))
    return {"file": str(path.relative_to(root)), "responses": sum(1 for u in conversation.usage if u),
            "plain_responses": plain["branch_responses"], "file_responses": plain["responses"],
            "models": list(ours.models), "lifetime": ours.cache_lifetime, "unknown": list(ours.unknown_models),
            "ours_usd": ours.total_usd, "plain_usd": expected, "file_usd": plain["cost"], "ratio": ratio,
            "agrees": abs(ratio - 1) <= TOLERANCE}


def short_models(models: list[str]) -> str:
    return ", ".join(m.replace("claude-", "").rsplit("-2025", 1)[0] for m in models) or "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [row for path in sorted(args.folder.rglob("*.jsonl")) if (row := check(path, args.folder))]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'file':<46} {'resp':>5} {'plain':>5} {'life':>5} {'ours $':>8} {'plain $':>8} {'ratio':>6} "
              f"{'file resp':>9} {'file $':>8}  models")
        for row in rows:
            if "error" in row:
                print(f"{row['file'][-46:]:<46} error: {row['error']}")
                continue
            flag = "" if row["agrees"] else "  DIFFERS"
            unknown = f" (not in table: {', '.join(row['unknown'])})" if row["unknown"] else ""
            print(f"{row['file'][-46:]:<46} {row['responses']:>5} {row['plain_responses']:>5} "
                  f"{row['lifetime'] or '-':>5} {row['ours_usd']:>8.2f} {row['plain_usd']:>8.2f} "
                  f"{row['ratio']:>6.3f} {row['file_responses']:>9} {row['file_usd']:>8.2f}  "
                  f"{short_models(row['models'])}{unknown}{flag}")
        good = [r for r in rows if "error" not in r]
        ours, plain = sum(r["ours_usd"] for r in good), sum(r["plain_usd"] for r in good)
        whole = sum(r["file_usd"] for r in good)
        print(f"{len(good)} files: ours ${ours:,.2f}, plain reading of the same branch ${plain:,.2f} (ratio "
              f"{ours / plain if plain else 1:.4f}; {sum(not r['agrees'] for r in good)} outside {TOLERANCE:.0%}); "
              f"every response of the files, rewound branches included: ${whole:,.2f}")
    return 0 if all(r.get("agrees") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
