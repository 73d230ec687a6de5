"""`compaction export FILE --strategy NAME --form FORM`: the strategy and settings tuned on a session, in
the form the agent takes them (a standalone Python module, the API's context_management, LangChain's
middleware, each agent's own environment, config file or settings key, the lab's compacting client). The session is replayed first, so what the export should do is said
beside it; the text goes to standard output (or -o), what cannot be set to standard error."""

import argparse
import sys
from pathlib import Path

from compaction.cli import common as cli_common
from compaction.cli.strategies import add_strategy_flags, strategy_from
from compaction.export import check_fits, export, forms


def add_command(subparsers) -> None:
    names = ", ".join(form.name + (f" (or {', '.join(form.aliases)})" if form.aliases else "") for form in forms())
    command = subparsers.add_parser(
        "export", help="write the strategy and settings in the form your agent takes them",
        description="Export a strategy at its parameters and the tutorial's settings in an agent's own form. "
                    f"FORM is one of: {names}.",
        epilog="Forms: " + "; ".join(f"{form.name}: {form.described}" for form in forms()) + ".")
    command.add_argument("file", type=Path, help="the session the settings were tuned on (any format `run` reads)")
    cli_common.add_format_flag(command)
    command.add_argument("--form", required=True, metavar="FORM",
                         help=f"{', '.join(form.name for form in forms())}; a form that does not carry the strategy "
                              "is refused")
    add_strategy_flags(command)
    cli_common.add_setting_flags(command)
    cli_common.add_model_window_flag(command)
    command.add_argument("-o", "--output", type=Path, help="write the export here (default: standard output)")
    command.set_defaults(handler=command_export)


def command_export(args: argparse.Namespace) -> int:
    from compaction.replay.loop import replay

    settings = cli_common.settings_from(args)
    strategy = strategy_from(args)  # a bad name, parameter or form stops before the file is read
    check_fits(args.form, strategy.spec.name)
    conversation = cli_common.load(args)
    result = replay(conversation, settings, strategy=strategy, model_window_tokens=args.model_window,
                    keep_histories=False)
    exported = export(strategy, settings=settings, form=args.form,
                      agent_version=conversation.metadata.get("agent_version"))
    totals = result.totals
    acted = ", ".join(f"{name} {count:,}" for name, count in totals["acted"].items() if count) or "nothing"
    print(f"{args.file}: {strategy.spec.name} as {exported.form}; the replay at these settings: "
          f"{totals['calls']:,} call{'' if totals['calls'] == 1 else 's'}, {totals['summaries']:,} "
          f"summar{'y' if totals['summaries'] == 1 else 'ies'}, peak {totals['peak_tokens']:,} tokens; "
          f"acted: {acted}", file=sys.stderr)
    for note in exported.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.output:
        args.output.write_text(exported.text, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(exported.text)
    return 0
