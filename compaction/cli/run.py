"""`compaction run FILE`: the four layers once over the whole conversation, with the size after each."""

import argparse
from pathlib import Path

from compaction.cli.common import (
    add_input_flags,
    add_setting_flags,
    load,
    make_store,
    make_summarizer,
    settings_from,
    write_json,
)
from compaction.model.conversation import group_warnings
from compaction.words import plural


def add_command(subparsers) -> None:
    run = subparsers.add_parser("run", help="compact a conversation and report each stage")
    add_input_flags(run)
    add_setting_flags(run)
    run.add_argument("-o", "--output", type=Path, help="write the compacted messages here as JSON")
    run.set_defaults(handler=command_run)


def command_run(args: argparse.Namespace) -> int:
    from compaction.cli.tables import stage_table
    from compaction.layers.pipeline import run_pipeline
    from compaction.layers.pipeline_data import result_dict

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
              f"{plural(len(conversation.warnings), 'warning')}")
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


