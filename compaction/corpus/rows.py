"""One row per session: what its log holds and what the pipeline does to it, as a plain JSON-ready dict.

`session_row(item, job)` is the function every worker runs on one SessionFile; it reads the file (the
path travels, not the contents), so a process pool and a Dask cluster give the same dicts. A file that
cannot be read or replayed is a row with `error` set and the measures left None, never an exception.
"""

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from compaction.corpus import subagents
from compaction.corpus.files import SessionFile, checked_path, project_of_cwd
from compaction.errors import CompactionError
from compaction.importers import load_conversation, load_run
from compaction.importers.formats import title_of
from compaction.importers.totals import RECORDED_TOTALS, has_tokens, input_of
from compaction.measures.branches_paid import paid_and_final
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.model.calibration import recorded_context
from compaction.model.conversation import Conversation
from compaction.model.history import History, prepare
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.validity import check_pairs
from compaction.replay.loop import replay
from compaction.summarizers import OfflineSummarizer
from compaction.sweep.grid import SweepStore
from compaction.sweep.sweeps import sweep

# What the log holds, then what the replay at the job's settings gives (its totals, same names).
LOG_COLUMNS = ("path", "run_line", "project", "session", "format", "format_title", "first_time", "last_time", "messages", "model_calls",
               "paid_calls", "paid_cost_usd", "left_branches", "chars", "bytes", "recorded_tokens", "recorded_peak_tokens", "log_compactions", "load_warnings",
               "input_pair_problems")
# One name per replay total copied into the row: a measure the replay adds is one more name here.
REPLAY_COLUMNS = ("tokens_sent", "raw_tokens_sent", "saved_share", "peak_tokens", "raw_peak_tokens", "summaries",
                  "reactive", "over_window_calls", "tool_output_kept",
                  "recorded_cost_usd",  # what the log's own calls cost, each at its response's model
                  "recorded_from_totals",  # that cost (and the recorded tokens) are the run's totals, as the log
                  # gives no call's own usage: every per-call figure is estimated
                  "cost_usd",  # with prompt caching, as the log says (or at the job's prices)
                  "price_notes",  # each model the price table lacks (priced at the settings' prices), once
                  "cost_usd_no_cache",
                  "cache_hit_rate",
                  "blind_references",
                  "artifact_retention")
COLUMNS = (*LOG_COLUMNS, *REPLAY_COLUMNS, "calls_with_pair_problems", *subagents.FAMILY_COLUMNS, "error")


@dataclass(frozen=True)
class Job:
    """What to compute for each session; small and picklable, sent with every path."""

    settings: Settings = DEFAULTS
    model_window_tokens: int | None = None  # None: each session at its own model's window
    x: tuple[str, Sequence[int]] | None = None  # the corpus sweep's axes, None for rows only
    y: tuple[str, Sequence[int]] | None = None
    prices: Prices | None = None  # the person's prices; None: each call as its log says (measures/billing.py)


def session_row(item: SessionFile, job: Job) -> dict[str, Any]:
    """The row of one session, and under "sweep" its sweep cells when the job sweeps (see aggregate)."""
    row = empty_row(item)
    if item.refused:
        row["error"] = f"{item.relative}: {item.refused}"
        return row
    try:
        path = checked_path(item)
        row["bytes"] = path.stat().st_size
        conversation = load_conversation(path, name=item.relative) if item.run is None else \
            load_run(path, item.run, name=item.relative)
        history = prepare(conversation)
        row.update(log_facts(conversation, history, job.prices))
        if item.run is not None:
            row["session"] = item.run.name  # its instance: the file's runs share its path
        row["kind"], row["subagent_of"] = subagents.from_log(conversation, item.relative)
        if row["kind"] == subagents.SUBAGENT and row["session"] == row["subagent_of"]:
            row["session"] = PurePosixPath(item.relative).stem  # agent-<id>: its lines name the parent
        with tempfile.TemporaryDirectory(prefix="compaction-corpus-", ignore_cleanup_errors=True) as folder:
            scratch = Path(folder)
            row.update(replay_facts(history, job, scratch))
            if job.x is not None and job.y is not None:
                result = sweep(history, job.x, job.y, job.settings, model_window_tokens=job.model_window_tokens,
                               store=SweepStore(scratch / "sweep"), prices=job.prices)
                row["sweep"] = result.cells
    except (CompactionError, OSError) as error:
        row["error"] = _error_text(error, item)
    except RecursionError:
        row["error"] = f"{item.name}: nested too deeply to read"
    except MemoryError:
        row["error"] = f"{item.name}: not enough memory to read it (see docs/limits.md)"
    except Exception as error:  # noqa: BLE001 - one session's failure must not stop the corpus
        row["error"] = f"{item.name}: unexpected {type(error).__name__} while analysing it: {error}"
    return row


def empty_row(item: SessionFile) -> dict[str, Any]:
    """Every column empty but what the path says: where the file is, and a subagent by its folder."""
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(path=item.relative, project=item.project, session=PurePosixPath(item.relative).stem)
    if item.run is not None:
        row.update(run_line=item.run.line, session=item.run.name)
    row["kind"], row["subagent_of"] = subagents.from_path(item.relative)
    return row


def log_facts(conversation: Conversation, history: History, prices: Prices | None = None) -> dict[str, Any]:
    """What the log itself says: size, calls, times, recorded usage, its own compactions, problems."""
    metadata = conversation.metadata or {}
    paid = paid_and_final(conversation, prices or DEFAULT_PRICES)
    times = [time for time in conversation.timestamps if time]
    recorded = [tokens for entry in conversation.usage if entry and (tokens := recorded_context(entry)) is not None]
    totals = metadata.get(RECORDED_TOTALS)
    if not recorded and has_tokens(totals):
        recorded = [input_of(totals)]  # the run's totals: no call of it says its own
    facts = {
        "format": conversation.format,
        "format_title": title_of(conversation.format),
        "first_time": times[0] if times else None,
        "last_time": times[-1] if times else None,
        "messages": len(history.messages),
        "model_calls": paid.final_calls,  # the final branch's, as the replay numbers them
        # with the calls of branches the person left (rewound, restarted): paid for, not replayed
        "paid_calls": paid.paid_calls,
        "paid_cost_usd": paid.paid_cost_usd,
        "left_branches": paid.sentence() if paid.left else None,  # names both figures, as every page does
        "chars": history.size,
        "recorded_tokens": sum(recorded) if recorded else None,
        "recorded_peak_tokens": max(recorded) if recorded and conversation.has_usage else None,
        "log_compactions": len(metadata.get("compact_boundaries") or ()),
        "load_warnings": len(conversation.warnings),
        "input_pair_problems": len(history.pair_problems()),
    }
    if isinstance(metadata.get("session_id"), str) and metadata["session_id"]:
        facts["session"] = metadata["session_id"]
    if isinstance(metadata.get("cwd"), str) and metadata["cwd"].strip():
        facts["project"] = project_of_cwd(metadata["cwd"].strip())  # the working directory names the project
    return facts


def replay_facts(history: History, job: Job, scratch: Path) -> dict[str, Any]:
    """The replay's totals at the job's settings, and how many calls would send a broken pairing."""
    result = replay(history, job.settings, store=SweepStore(scratch / "replay"), summarizer=OfflineSummarizer(),
                    model_window_tokens=job.model_window_tokens, prices=job.prices)
    totals = result.totals
    facts = {name: totals[name] for name in REPLAY_COLUMNS}
    # a call's history is at most max_messages long once L1 acts, so this stays linear in the session
    facts["calls_with_pair_problems"] = sum(1 for sent in result.histories or () if check_pairs(sent.messages))

    return facts


def _error_text(error: Exception, item: SessionFile) -> str:
    if isinstance(error, OSError):
        return f"{item.name}: cannot read the file: {error.strerror or error}"
    text = str(error)
    if not text.startswith(item.relative):
        return f"{item.name}: {text}"
    # a run's error names its file: the row names the run too
    return text if item.run is None or text.startswith(item.name) else item.name + text[len(item.relative):]
