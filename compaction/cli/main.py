"""The command line, `compaction` (or `python -m compaction`): one subcommand per module of this package,
plus the subcommands other installed packages add through the `compaction.commands` entry point (the
dashboard's `report`, which needs plotly)."""

import argparse
import sys
from importlib.metadata import entry_points

from compaction.cli import (
    compactions,
    composition,
    corpus,
    export,
    generate,
    replay,
    run,
    sample,
    strategies,
    sweep,
    watch,
)
from compaction.errors import CompactionError

COMMANDS = (sample, run, generate, replay, composition, compactions, sweep, strategies, corpus, export, watch)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="compaction", description="Run the four-layer context compaction pipeline.")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.add_command(commands)
    for plugin in entry_points(group="compaction.commands"):
        plugin.load()(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except CompactionError as error:
        print(f"compaction: error: {error}", file=sys.stderr)
    except BrokenPipeError:  # the reader stopped early (`| head`): nothing more to say
        sys.stderr = None
        return 0
    except OSError as error:
        print(f"compaction: error: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
    except RecursionError:
        print(f"compaction: error: {args.file}: nested too deeply to read", file=sys.stderr)
    except MemoryError:
        print(f"compaction: error: {args.file}: not enough memory to read it (see docs/limits.md)",
              file=sys.stderr)
    except KeyboardInterrupt:
        print("compaction: interrupted", file=sys.stderr)
        return 130
    return 2


def console() -> None:
    """The `compaction` console script."""
    sys.exit(main())
