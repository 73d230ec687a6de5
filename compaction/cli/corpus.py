"""`python -m compaction corpus DIR`: one row per session of a folder (or .zip), and a sweep over all.

`python -m compaction corpus DIR [--workers N | --scheduler ADDR] [--sweep X=v1,v2 Y=v1,v2] [settings] --json`
prints one JSON object: {"sessions": [row, ...], "cancelled": false, "sweep": {...} (when sweeping)};
without --json a table. A file that cannot be read is a row with its error; the exit status stays 0.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from compaction.cli.common import (
    add_executor_flags,
    add_json_flag,
    add_model_window_flag,
    add_setting_flags,
    settings_from,
    write_json,
)
from compaction.corpus import CorpusResult, Job, analyse, discover, unpack_sessions
from compaction.importers.formats import suffixes
from compaction.measures.registry import MEASURES, measure_text


def add_command(subparsers) -> None:
    parser = subparsers.add_parser("corpus", help="summarise (and sweep) every session of a folder or .zip")
    parser.add_argument("folder", type=Path, help="folder searched recursively for sessions "
                        f"({'/'.join(suffixes())}), or a .zip of them")
    add_executor_flags(parser)
    parser.add_argument("--sweep", nargs=2, metavar=("X=V1,V2,...", "Y=V1,V2,..."),
                        help="also replay every session over this grid of two settings and give, per cell, "
                        "the median and 90th percentile over sessions")
    parser.add_argument("--measure", choices=tuple(MEASURES), default="saved_share",
                        help="the sweep measure the table shows (--json has them all; default saved_share)")
    add_model_window_flag(parser)
    add_json_flag(parser)
    add_setting_flags(parser)
    parser.set_defaults(handler=command_corpus)


def command_corpus(args: argparse.Namespace) -> int:
    from compaction.cli.common import parse_axis

    x = y = None
    if args.sweep:
        x, y = parse_axis(args.sweep[0], "--sweep X"), parse_axis(args.sweep[1], "--sweep Y")
    job = Job(settings_from(args), args.model_window, x, y)
    with tempfile.TemporaryDirectory(prefix="compaction-corpus-zip-") as scratch:
        if args.folder.suffix.lower() == ".zip" and args.folder.is_file():
            # unpacked into a folder named like the archive: files at its top belong to that project
            files = unpack_sessions(args.folder, Path(scratch) / args.folder.stem, args.folder.name).sessions()
        else:
            files = discover(args.folder)
        result = analyse(files, job, args.workers, args.scheduler, progress=_progress_line())
    if args.json:
        write_json(result.as_dict(), None)
    else:
        print(rows_table(result))
        if result.sweep is not None:
            print()
            print(sweep_table(result.sweep, args.measure))
    return 0


def _progress_line():
    """'analysed N of M' on the terminal's error stream, None when it is not a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\ranalysed {done:,} of {total:,} sessions")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _share(value) -> str:
    return "-" if value is None else f"{value:.0%}"


def _count(value) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _dollars(value) -> str:
    # to a hundredth of a cent: a subagent's few calls often cost less than a cent
    return "-" if value is None else f"${value:,.4f}"


# (title, width, text of a row); the path comes last, unpadded
ROW_COLUMNS = (
    ("format", 11, lambda row: row["format_title"] or ""),
    ("messages", 8, lambda row: _count(row["messages"])),
    ("calls", 6, lambda row: _count(row["model_calls"])),
    ("recorded $", 11, lambda row: _dollars(row["recorded_cost_usd"])),
    ("cost $", 11, lambda row: _dollars(row["cost_usd"])),
    ("tokens sent", 12, lambda row: _count(row["tokens_sent"])),
    ("uncompacted", 12, lambda row: _count(row["raw_tokens_sent"])),
    ("saved", 6, lambda row: _share(row["saved_share"])),
    ("pairs", 5, lambda row: _count((row["input_pair_problems"] or 0) + (row["calls_with_pair_problems"] or 0))),
)
SUBAGENT_MARK = "  `-- "  # ASCII: a redirected Windows console cannot write every character


def rows_table(result: CorpusResult) -> str:
    """One line per row ('recorded $': what the log's own calls cost; 'cost $': what the settings would
    send, with prompt caching), each subagent indented under its session."""
    lines = [" ".join(f"{title:>{width}}" if title != "format" else f"{title:<{width}}"
                      for title, width, _ in ROW_COLUMNS) + "  path"]
    for row in result.rows:
        path = (SUBAGENT_MARK if row.get("parent_path") else "") + row["path"]
        if row.get("run_line") is not None:  # one run of an evaluation output: its instance beside the file
            path += f" [{row['session']}]"
        if row.get("subagent_of") and not row.get("parent_path"):
            path += f"  (a subagent of session {row['subagent_of']}, which is not in this folder)"
        if row["error"]:
            cells = [f"{'':>{width}}" for _, width, _ in ROW_COLUMNS]
            lines.append(" ".join(cells) + f"  {path}  ERROR {row['error']}")
            continue
        cells = [f"{text(row):<{width}}" if title == "format" else f"{text(row):>{width}}"
                 for title, width, text in ROW_COLUMNS]
        lines.append(" ".join(cells) + f"  {path}")
    errors = sum(1 for row in result.rows if row["error"])
    subagents = sum(1 for row in result.rows if row.get("kind") == "subagent")
    recorded = [row["recorded_cost_usd"] for row in result.rows if row.get("recorded_cost_usd") is not None]
    lines.append(f"{len(result.rows):,} sessions, {errors:,} could not be read"
                 + (f"; {subagents:,} of them subagents" if subagents else "")
                 + (f"; recorded cost {_dollars(sum(recorded))}" if recorded else "")
                 + (f"; cancelled after {len(result.rows):,} of {result.sessions:,}" if result.cancelled else ""))
    return "\n".join(lines)


def sweep_table(sweep: dict, measure: str) -> str:
    """Per cell 'median / p90' of one measure."""
    statistics = sweep["measures"].get(measure)
    def show(value) -> str:
        return measure_text(value, measure, share_digits=0)

    header = f"{sweep['y']['name']} \\ {sweep['x']['name']}"
    lines = [f"{MEASURES[measure].label if measure in MEASURES else measure}: median / 90th percentile over {sweep['sessions']:,} sessions"]
    cells = [[f"{show(median)} / {show(p90)}" for median, p90 in zip(medians, p90s, strict=True)]
             for medians, p90s in zip(statistics["median"], statistics["p90"], strict=True)] if statistics else []
    width = max([len(f"{v:,}") for v in sweep["x"]["values"]] + [len(cell) for row in cells for cell in row] + [9])
    lines.append(f"{header} " + " ".join(f"{value:>{width},}" for value in sweep["x"]["values"]))
    for y_value, row in zip(sweep["y"]["values"], cells, strict=True):
        lines.append(f"{y_value:>{len(header)},} " + " ".join(f"{cell:>{width}}" for cell in row))
    return "\n".join(lines)
