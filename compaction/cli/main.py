"""The command line, `compaction` (or `python -m compaction`): one subcommand per module of this package."""

import argparse
import sys
from pathlib import Path

from compaction.cli.common import (
    add_file_flags,
    add_input_flags,
    add_model_window_flag,
    add_setting_flags,
    load,
    make_store,
    make_summarizer,
    settings_from,
    write_json,
)
from compaction.errors import CompactionError
from compaction.model.conversation import group_warnings


def command_sample(args: argparse.Namespace) -> int:
    from compaction.generate import generate

    write_json(generate(args.name), args.output)
    return 0


def command_run(args: argparse.Namespace) -> int:
    from compaction.cli.tables import result_dict, stage_table
    from compaction.layers.pipeline import run_pipeline

    settings = settings_from(args)
    conversation = load(args)
    result = run_pipeline(conversation, settings, make_store(args), make_summarizer(args, settings))
    if args.output:
        write_json(result.final.messages, args.output)
    exact = exact_stage_tokens(result, conversation) if args.exact_tokens else None
    if args.json:
        data = result_dict(result, str(args.file))
        data["input"]["format"] = conversation.format
        data["input"]["warnings"] = [str(w) for w in conversation.warnings]
        data["input"]["warning_groups"] = [{"kind": g.kind, "count": g.count, "lines": g.lines, "messages": g.indices,
                                            "first": str(g.first[0])} for g in group_warnings(conversation.warnings)]
        if exact is not None:
            for row, count in zip(data["stages"], exact, strict=True):
                row["exact_tokens"] = count
        write_json(data, None)
    else:
        print(f"{args.file}: {conversation.format}, {len(conversation.messages):,} messages, "
              f"{len(conversation.warnings)} warning(s)")
        for group in group_warnings(conversation.warnings):
            print(f"  warning: {group.summary()}")
        print(stage_table(result))
        if exact is not None:
            print("exact tokens (API): " + ", ".join(f"{s.layer} {n:,}" for s, n in zip(result.stages, exact,
                                                                                      strict=True)))
    return 0


def exact_stage_tokens(result, conversation) -> list[int]:
    """Each stage's input tokens as the API counts them; stages with the same messages are counted once."""
    from compaction.llm.token_count import exact_tokens

    counts: dict[int, int] = {}
    for stage in result.stages:
        key = id(stage.history)
        if key not in counts:
            counts[key] = exact_tokens(stage.messages, conversation.system, conversation.tools or None)
    return [counts[id(stage.history)] for stage in result.stages]


def command_report(args: argparse.Namespace) -> int:
    """One self-contained HTML file: the run, its replay and what changed (the dashboard draws it)."""
    from compaction.layers.pipeline import run_pipeline
    from compaction.replay.loop import replay

    try:  # the charts are the dashboard's (plotly); the engine itself never imports them
        from dashboard.render.html_report import report_html
    except ImportError as error:
        raise CompactionError(f"the report needs the dashboard's packages ({error.name}): "
                              "pip install -r requirements.txt, and run from the project folder") from None
    settings = settings_from(args)
    conversation = load(args)
    summarizer = make_summarizer(args, settings)
    store = make_store(args)
    result = run_pipeline(conversation, settings, store, summarizer)
    replayed = replay(conversation, settings, store, summarizer, args.model_window, keep_histories=False)
    args.output.write_text(report_html(result, replayed, args.file.name), encoding="utf-8")
    print(f"{args.output}: report on {args.file} ({len(conversation.messages):,} messages)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="compaction",
                                     description="Run the four-layer context compaction pipeline.")
    commands = parser.add_subparsers(dest="command", required=True)

    sample = commands.add_parser("sample", help="write a built-in sample conversation")
    sample.add_argument("name", choices=("seed-demo",), help="which sample")
    sample.add_argument("-o", "--output", type=Path, help="output file (default: standard output)")
    sample.set_defaults(handler=command_sample)

    run = commands.add_parser("run", help="compact a conversation and report each stage")
    add_input_flags(run)
    add_setting_flags(run)
    run.add_argument("-o", "--output", type=Path, help="write the compacted messages here as JSON")
    run.set_defaults(handler=command_run)

    report = commands.add_parser("report", help="write one HTML file (opens offline) to send: settings, "
                                 "charts and what changed")
    add_file_flags(report)
    add_model_window_flag(report)
    add_setting_flags(report)
    report.add_argument("-o", "--output", type=Path, required=True, help="the HTML file to write")
    report.set_defaults(handler=command_report)

    from compaction.cli.corpus import add_corpus_command
    from compaction.cli.generate import add_generate_command
    from compaction.cli.replay import add_replay_commands
    from compaction.cli.strategies import add_strategies_command

    add_generate_command(commands)
    add_replay_commands(commands)
    add_strategies_command(commands)
    add_corpus_command(commands)
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
