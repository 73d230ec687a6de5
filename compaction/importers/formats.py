"""Every conversation format the lab reads, in one table: its name, its title for people, the file
suffixes it comes in, how to recognise it, and how to load it. Detection, the CLI's `--format` choices,
the dashboard's upload types and page help, corpus discovery and the benchmarks all read this table, so a
new format is one module, one entry here and its cases.

Detection tries the entries in order: a parsed JSON document against each `document` sniffer, JSON lines
against each `lines` sniffer; the last entry of each kind accepts anything (Anthropic for a document,
Claude Code for lines), so the error a file gets is that format's own, naming the line or field.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compaction.importers import (
    anthropic,
    claude_code,
    codex,
    gemini,
    openai,
    openhands,
    runs,
    swe_agent,
    trace,
)
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation


@dataclass(frozen=True)
class Format:
    name: str  # stable: `--format`, JSON output and Conversation.format use it
    title: str  # for people: the Format metric, tables
    described: str  # what a file of this format holds, for the upload's help
    suffixes: tuple[str, ...]  # with the dot, lower case
    # JSON document -> a Conversation (None: the format is JSON lines only; a one-line file is read as lines)
    load_document: Callable[[Any, str], Conversation] | None = None
    load_lines: Callable[[JsonLines], Conversation] | None = None  # None: one JSON document only
    document: Callable[[Any], bool] | None = None  # recognises a parsed document
    lines: Callable[[list[tuple[int, dict]]], bool] | None = None  # recognises the objects of JSON lines


def _anything(_value) -> bool:
    return True


FORMATS: tuple[Format, ...] = (
    Format("anthropic", "Anthropic", "Anthropic Messages: a request body or a list of messages (JSON), or one "
           "message a line (JSONL)", (".json", ".jsonl"), anthropic.from_json, anthropic.from_lines,
           _anything, anthropic.lines_look_like),
    Format("claude-code", "Claude Code", "a Claude Code session log (.jsonl), a subagent's own file included",
           (".jsonl",), None, claude_code.load, claude_code.looks_like, _anything),
    Format("openai", "OpenAI chat", "an OpenAI chat conversation (JSON)", (".json",), openai.from_json,
           None, openai.looks_like),
    Format("swe-agent", "SWE-agent", "a SWE-agent trajectory (.traj)", (".traj", ".json", ".jsonl"),
           swe_agent.from_json, runs.first_run_of(swe_agent), swe_agent.looks_like,
           runs.runs_of(swe_agent)),
    Format("openhands", "OpenHands", "an OpenHands trajectory (the exported event list, or an evaluation's "
           "output.jsonl)", (".json", ".jsonl"), openhands.from_json, runs.first_run_of(openhands),
           openhands.looks_like, runs.runs_of(openhands)),
    Format("codex", "Codex CLI", "a Codex CLI rollout (rollout-*.jsonl, the 2025 layout included)", (".jsonl",),
           None, codex.load, None, codex.looks_like),
    Format("gemini", "Gemini CLI", "a Gemini CLI chat recording (session-*.json) or its headless stream-json output",
           (".json", ".jsonl"), gemini.from_json, gemini.from_lines, gemini.looks_like, gemini.looks_like_lines),
    Format("compaction-trace", "Compaction Lab trace", "the trace of the lab's compacting client (one line per model "
           "call, with the usage the API answered)", (".jsonl",), None, trace.load, None, trace.looks_like),
)
BY_NAME: dict[str, Format] = {entry.name: entry for entry in FORMATS}
# Detection order: the more particular shapes first, the catch-all last
DOCUMENT_ORDER = tuple(BY_NAME[name] for name in ("claude-code", "gemini", "swe-agent", "openhands", "openai",
                                                  "anthropic"))
LINES_ORDER = tuple(BY_NAME[name] for name in ("compaction-trace", "codex", "gemini", "anthropic", "openhands", "swe-agent", "claude-code"))
CHOICES = ("auto", *BY_NAME)  # the values of `--format`
SUFFIXES = tuple(sorted({suffix for entry in FORMATS for suffix in entry.suffixes}))  # of a session file


def detect_document(value: Any) -> Format:
    return next(entry for entry in DOCUMENT_ORDER if entry.document(value))


def detect_lines(objects: list[tuple[int, dict]]) -> Format:
    return next(entry for entry in LINES_ORDER if entry.lines(objects))


def title_of(name: str) -> str:
    found = BY_NAME.get(name)
    return found.title if found else name
