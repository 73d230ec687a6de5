"""`compaction report FILE -o report.html`: the dashboard's subcommand of the engine's command line.

The engine imports nothing of the dashboard: this module is found through the `compaction.commands`
entry point (pyproject.toml), and imports plotly only when the command runs, so `compaction --help`
works without the `app` extra and the report says how to get it.
"""

import argparse
from pathlib import Path

from compaction.cli import (
    add_file_flags,
    add_model_window_flag,
    add_setting_flags,
    load,
    make_store,
    make_summarizer,
    settings_from,
)
from compaction.errors import CompactionError


def add_command(subparsers) -> None:
    report = subparsers.add_parser("report", help="write one HTML file (opens offline) to send: settings, "
                                   "charts and what changed")
    add_file_flags(report)
    add_model_window_flag(report)
    add_setting_flags(report)
    report.add_argument("-o", "--output", type=Path, required=True, help="the HTML file to write")
    report.set_defaults(handler=command_report)


def command_report(args: argparse.Namespace) -> int:
    """One self-contained HTML file: the run, its replay and what changed."""
    from compaction.compactions import compaction_cards, own_preset, presets_beside
    from compaction.layers import run_pipeline
    from compaction.model import prepare
    from compaction.replay import replay
    from dashboard.render.log_view import WITHOUT_SUMMARIES, log_view, view_sentence

    try:
        from dashboard.render.html_report import report_html
    except ImportError as error:
        raise CompactionError(f"the report needs the dashboard's packages ({error.name}): "
                              "pip install 'compaction-lab[app]'") from None
    settings = settings_from(args)
    conversation = load(args)
    summarizer = make_summarizer(args, settings)
    store = make_store(args)
    # as the Pipeline page does: a log's own summaries are not passed through the layers again
    view = log_view(prepare(conversation), WITHOUT_SUMMARIES)
    result = run_pipeline(view.history, settings, store, summarizer)
    replayed = replay(conversation, settings, store=store, summarizer=summarizer, model_window_tokens=args.model_window, keep_histories=False)
    history, own = prepare(conversation), own_preset(conversation.format)
    beside = presets_beside(replay(history, store=store, summarizer=summarizer, model_window_tokens=args.model_window,
                                   strategy=own, keep_histories=False)) if own and history.recorded.boundaries else None
    cards = compaction_cards(history, conversation.format, presets=beside)
    args.output.write_text(report_html(result, replayed, args.file.name, view_note=view_sentence(view, "chars"),
                                       cards=cards), encoding="utf-8")
    print(f"{args.output}: report on {args.file} ({len(conversation.messages):,} messages)")
    return 0
