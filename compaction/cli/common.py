"""What the command line's subcommands share: the setting and input flags, loading the input, the
output store, the summariser, and writing JSON. Each subcommand module imports these from here, so no
module of the command line imports another one's entry point."""

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from compaction.errors import CompactionError, SettingsError
from compaction.importers.formats import choices as format_choices
from compaction.measures.cost import Prices
from compaction.measures.windows import FALLBACK_WINDOW, log_window
from compaction.model.settings import DEFAULTS, HELP, Settings
from compaction.strategies import StrategySpec

SETTING_FLAGS = ("context_limit", "keep_recent", "persist_threshold", "max_messages", "max_bytes",
                 "preview_chars", "summary_input_cap", "summary_max_tokens")


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    for name in SETTING_FLAGS:
        parser.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(DEFAULTS, name),
                            metavar="N", help=f"{HELP[name]} (default {getattr(DEFAULTS, name):,})")


def settings_from(args: argparse.Namespace) -> Settings:
    return DEFAULTS.replace(**{name: getattr(args, name) for name in SETTING_FLAGS})


def add_file_flags(parser: argparse.ArgumentParser) -> None:
    """The conversation file and how to read and compact it."""
    parser.add_argument("file", type=Path, help="conversation file (JSON, JSONL)")
    add_format_flag(parser)
    parser.add_argument("--store", type=Path, help="folder for persisted outputs and transcripts "
                        "(default: a new temporary folder)")
    parser.add_argument("--summarizer", choices=("offline", "claude"), default="offline",
                        help="who writes L4 summaries (claude needs ANTHROPIC_API_KEY)")


def add_format_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=format_choices(), default="auto", help="input format (default: auto)")


def add_json_flag(parser: argparse.ArgumentParser, instead: str = "a table") -> None:
    parser.add_argument("--json", action="store_true", help=f"print one JSON object instead of {instead}")


def add_input_flags(parser: argparse.ArgumentParser) -> None:
    add_file_flags(parser)
    add_json_flag(parser)
    parser.add_argument("--exact-tokens", action="store_true",
                        help="also count each stage's tokens with the API (needs ANTHROPIC_API_KEY)")


def add_model_window_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model-window", type=int, default=None, metavar="TOKENS",
                        help="a context over this many estimated tokens is compacted reactively before it is "
                        "sent (default: the window of the log's model, as the log names it or as its agent uses "
                        f"it; {FALLBACK_WINDOW:,} when the log names no model the window table knows)")


def model_window_of(args: argparse.Namespace, conversation) -> dict:
    """The window a replay uses and where it comes from: --model-window, else the log's own."""
    if args.model_window is not None:
        return {"tokens": args.model_window, "source": "--model-window"}
    return log_window(conversation.usage, conversation.metadata).as_dict()


def add_executor_flags(parser: argparse.ArgumentParser) -> None:
    """Where the work runs: local processes or a Dask cluster, one or the other."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, metavar="N",
                       help="local worker processes (default 1: this process)")
    where.add_argument("--scheduler", metavar="ADDR", help="a Dask scheduler address, e.g. tcp://10.0.0.5:8786; "
                       "its workers must see the input at the same path")


def load(args: argparse.Namespace):
    from compaction.importers import load_conversation

    return load_conversation(args.file, format=args.format, name=str(args.file))


def make_store(args: argparse.Namespace):
    from compaction.storage.outputs import OutputStore

    return OutputStore(args.store) if args.store else OutputStore.temporary()


def make_summarizer(args: argparse.Namespace, settings: Settings):
    """The summariser asked for; Claude with the settings' input cap and summary length."""
    if args.summarizer == "claude":
        from compaction.llm.client import NO_KEY_MESSAGE, resolve_key
        from compaction.summarizers.claude import ClaudeSummarizer

        if resolve_key(None) is None:  # say so before any work, not inside the report
            raise CompactionError(NO_KEY_MESSAGE)
        return ClaudeSummarizer(max_tokens=settings.summary_max_tokens, input_cap=settings.summary_input_cap)
    from compaction.summarizers import OfflineSummarizer

    return OfflineSummarizer()


def write_json(data, path: Path | None) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=None, default=str)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from the input (JSON allows "\ud800"): escape them
        text = json.dumps(data, ensure_ascii=True, indent=None, default=str)
    if path is None:
        sys.stdout.write(text + "\n")
    else:
        path.write_text(text, encoding="utf-8")


PRICE_FLAGS = (("input_price", "input", "USD", "US$ per million input tokens"),
               ("output_price", "output", "USD", "US$ per million output tokens"),
               ("cache_write", "cache_write", "X", "a 5-minute cache write costs X times the input price"),
               ("cache_write_1h", "cache_write_1h", "X", "a 1-hour cache write costs X times the input price"),
               ("cache_read", "cache_read", "X", "a cache read costs X times the input price"))


def add_loop_flags(parser: argparse.ArgumentParser) -> None:
    """The model window and the prices, for the commands that replay. Without a price flag each call is
    priced as the log says (its model's list price); any price flag prices every call at the prices given
    (the others at their defaults)."""
    add_model_window_flag(parser)
    defaults = Prices()
    for flag, field, metavar, words in PRICE_FLAGS:
        parser.add_argument("--" + flag.replace("_", "-"), dest=flag, type=float, default=None, metavar=metavar,
                            help=f"{words} (default: as the log's model is priced, else {getattr(defaults, field)})")


def prices_from(args: argparse.Namespace) -> Prices | None:
    given = {field: getattr(args, flag) for flag, field, _, _ in PRICE_FLAGS if getattr(args, flag) is not None}
    return Prices(**given) if given else None


def emit(args: argparse.Namespace, data: dict, title: str, table: str) -> int:
    """One JSON object with --json, else a title line and a table."""
    if args.json:
        write_json(data, None)
    else:
        print(title)
        print(table)
    return 0


_NUMBER = re.compile(r"^\d[\d_]*$")


def parse_axis(text: str, flag: str, strategy: StrategySpec | None = None) -> tuple[str, list[Any]]:
    """'context_limit=20000,50000' -> ('context_limit', [20000, 50000]); dashes or underscores. With
    `strategy`, a name may be one of its parameters, whose values are read as its spec reads them
    ('threshold_fraction=0.3,0.5')."""
    from compaction.sweep.grid import PARAMETER, axis_kind

    name, equals, values = text.partition("=")
    name = name.strip().replace("-", "_")
    if not equals or not name:
        raise SettingsError(f"{flag} must look like NAME=V1,V2,... (e.g. context_limit=20000,50000), got {text!r}")
    try:
        kind = axis_kind(name, strategy)
    except SettingsError as error:
        raise SettingsError(f"{flag}: {error}") from None
    if strategy is not None and kind == PARAMETER:
        return name, [strategy.param(name).parse(value, strategy.name) for value in values.split(",")]
    parsed = []
    for value in values.split(","):
        value = value.strip()
        if not _NUMBER.match(value):
            raise SettingsError(f"{flag}: {name} values must be whole numbers, got {value!r}")
        parsed.append(int(value))
    return name, parsed


