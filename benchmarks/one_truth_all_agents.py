"""One truth per log, for every agent: the commands a user runs on one file give the same calls, cost and
window for it. Real public logs are kept apart (DIR/<agent>/..., not ours to commit).

    .venv/bin/python benchmarks/one_truth_all_agents.py DIR [--per-agent 10] [--json]

For at most --per-agent files of each agent (spread evenly over its sorted list), the command line itself
runs `replay --json`, `composition --json`, `compactions --json` and `corpus --json` (on a folder of those
files), and `watch --json --until-idle` where the file's format has a live reader. Each figure is read
from each command's JSON where the command gives it:
- calls: replay's totals.calls, composition's calls, corpus's model_calls, watch's closing line's calls;
- cost: the log's recorded cost, replay's totals.recorded_cost_usd, corpus's recorded_cost_usd, watch's
  cost so far; where a command counts another set of calls by design (watch: every call paid, branches
  included), its JSON must name the final branch's figures beside its own ("branches"): those are
  compared, and its own against the paid figures it names ("watch paid");
- window: replay's model_window.tokens, composition's, compactions' and corpus's model_window_tokens;
- compactions: replay's boundaries, compactions' cards, corpus's log_compactions.
A figure a command does not give is "-" (not a difference). One row per agent: files, agree, differ, and
which figures differ where; --json gives every file's figures. A file holding several sessions is compared
on the one session `replay` loads (its first), against corpus's row of the same session.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
SIDE_FILES = ("-wal", "-shm", "-journal")  # a SQLite database's companions: copied beside it, never a log
LIVE_FORMATS = ("claude-code", "codex", "gemini-cli")  # what `watch --format` accepts
TIMEOUT = 300


def run(*args: str) -> tuple[object | None, str]:
    """The JSON a command prints (its last line for JSON lines as a list), or None and its error."""
    done = subprocess.run([PYTHON, "-m", "compaction", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=TIMEOUT, env=os.environ | {"PYTHONPATH": str(REPO)})
    if done.returncode:
        return None, (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    lines = [line for line in done.stdout.splitlines() if line.strip().startswith(("{", "["))]
    if not lines:
        return None, "no JSON printed"
    if len(lines) == 1:
        return json.loads(lines[0]), ""
    return [json.loads(line) for line in lines], ""


def sample(files: list[Path], most: int) -> list[Path]:
    if len(files) <= most:
        return files
    step = len(files) / most
    return [files[int(i * step)] for i in range(most)]


def logs_of(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.endswith(SIDE_FILES)
                  and "subagents" not in p.parts)


def figures_of(path: Path, corpus_row: dict | None) -> dict:
    """{figure: {command: value}} for one file."""
    out: dict[str, dict] = defaultdict(dict)
    errors = {}
    replayed, error = run("replay", "--json", str(path))
    if replayed is None:
        return {"error": f"replay: {error}"}
    totals = replayed["totals"]
    out["calls"]["replay"] = totals["calls"]
    out["cost"]["replay"] = round(totals.get("recorded_cost_usd") or 0.0, 6)
    out["window"]["replay"] = (replayed.get("model_window") or {}).get("tokens")
    out["compactions"]["replay"] = len(replayed.get("boundaries") or [])
    fmt = replayed["input"]["format"]
    composed, error = run("composition", "--json", str(path))
    if composed is None:
        errors["composition"] = error
    else:
        out["calls"]["composition"] = composed.get("calls")
        if "model_window_tokens" in composed:
            out["window"]["composition"] = composed["model_window_tokens"]
    cards, error = run("compactions", "--json", "--no-preset", str(path))
    if cards is None:
        errors["compactions"] = error
    else:
        out["compactions"]["compactions"] = len(cards.get("compactions") or [])
        if "model_window_tokens" in cards:
            out["window"]["compactions"] = cards["model_window_tokens"]
    if corpus_row is not None and corpus_row.get("error"):
        errors["corpus"] = corpus_row["error"]
    elif corpus_row is not None:
        out["calls"]["corpus"] = corpus_row.get("model_calls")
        out["cost"]["corpus"] = round(corpus_row.get("recorded_cost_usd") or 0.0, 6)
        out["compactions"]["corpus"] = corpus_row.get("log_compactions")
        if "model_window_tokens" in corpus_row:
            out["window"]["corpus"] = corpus_row["model_window_tokens"]
    if fmt in LIVE_FORMATS:
        watched, error = run("watch", "--json", "--until-idle", "0.5", str(path))
        last = watched[-1] if isinstance(watched, list) else watched
        if isinstance(last, dict) and isinstance(last.get("branches"), dict):
            # by design watch counts every call paid, on whichever branch: it names the final branch's
            # figures beside its own, and those are compared; its own must be the paid ones it names
            named = last["branches"]
            out["calls"]["watch"] = named.get("final_branch_calls")
            out["cost"]["watch"] = round(named.get("final_branch_cost_usd") or 0.0, 6)
            # a final-branch response that recorded no usage is named apart: Live counts usage lines
            seen = (named.get("paid_calls") or 0) - (named.get("unrecorded_calls") or 0)
            out["watch paid"] = {"watch": last.get("calls"), "named": seen}
        elif isinstance(last, dict):  # a watch that names no other figure: its own are compared
            out["calls"]["watch"] = last.get("calls")
            out["cost"]["watch"] = round(last.get("cost_so_far_usd") or 0.0, 6)
        else:
            errors["watch"] = error or "no line"
    differs = [name for name, by in out.items()
               if len({round(v, 2) if isinstance(v, float) else v for v in by.values() if v is not None}) > 1]
    return {"format": fmt, "figures": dict(out), "differs": differs, "errors": errors}


def corpus_rows(files: list[Path], root: Path) -> dict[Path, dict]:
    """corpus --json over a folder holding copies of `files` (and their SQLite companions; a corpus reads no
    link to outside its folder): the first row of each file, by its path."""
    with tempfile.TemporaryDirectory() as scratch:
        for path in files:
            for companion in [path, *(path.with_name(path.name + s) for s in SIDE_FILES)]:
                if companion.exists():
                    link = Path(scratch) / companion.relative_to(root)
                    link.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(companion, link)
        listed, _ = run("corpus", "--json", scratch)
    rows: dict[Path, dict] = {}
    for row in (listed or {}).get("sessions", []) if isinstance(listed, dict) else []:
        rows.setdefault(root / row["path"], row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--per-agent", type=int, default=10)
    parser.add_argument("--agents", default="", help="comma-separated agent folders (default: every one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    wanted = {a for a in args.agents.split(",") if a}
    report = {}
    for agent_dir in sorted(p for p in args.folder.iterdir() if p.is_dir()):
        if wanted and agent_dir.name not in wanted:
            continue
        files = sample(logs_of(agent_dir), args.per_agent)
        rows = corpus_rows(files, agent_dir)
        report[agent_dir.name] = {str(p.relative_to(agent_dir)): figures_of(p, rows.get(p)) for p in files}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{'agent':<14} {'files':>5} {'agree':>5} {'differ':>6} {'error':>5}  differing figures (files)")
    for agent, files in report.items():
        ok = [f for f in files.values() if "error" not in f]
        differ = [f for f in ok if f["differs"]]
        counts: dict[str, int] = defaultdict(int)
        for f in differ:
            for name in f["differs"]:
                counts[name] += 1
        print(f"{agent:<14} {len(files):>5} {len(ok) - len(differ):>5} {len(differ):>6} {len(files) - len(ok):>5}  "
              + (", ".join(f"{k} ({v})" for k, v in sorted(counts.items())) or "-"))
    for agent, files in report.items():
        for name, f in files.items():
            if "error" in f:
                print(f"  {agent}/{name}: {f['error']}", file=sys.stderr)
            elif f["differs"] or f["errors"]:
                shown = {k: f["figures"][k] for k in f["differs"]}
                print(f"  {agent}/{name}: {shown} {f['errors'] or ''}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
