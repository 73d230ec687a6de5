"""`compaction composition FILE`: what fills the context of one model call, by kind, in tokens.

The call (the last by default; numbered from 0, as `replay --json` numbers them) is taken from a replay
of the file, with the strategy applied as the replay applies it. Without --strategy (`none`) no strategy
of the lab acts: the history is what the log sent, its agent's own compactions as recorded (the whole
history for a log that never compacted), and its tokens are the recorded ones where the log has usage.
"""

import argparse

from compaction.cli import common as cli_common
from compaction.errors import SettingsError
from compaction.measures.composition import KIND_TITLES, KINDS
from compaction.measures.composition_tokens import Composition, call_composition
from compaction.strategies import build, lookup

NONE = "none"
AS_SENT = "as-recorded"  # what `none` replays: the log's own history at every call
NONE_WORDS = "none: what the log sent, its agent's own compactions as recorded"


def add_command(subparsers) -> None:
    command = subparsers.add_parser("composition", help="what fills the context of one model call, by kind "
                                    "(system prompt and tools, the person, replies, thinking, tool calls, tool "
                                    "results by tool, summaries, placeholders, previews), in tokens")
    cli_common.add_file_flags(command)
    command.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    cli_common.add_setting_flags(command)
    cli_common.add_model_window_flag(command)
    command.add_argument("--strategy", default=NONE, metavar="NAME",
                         help="the strategy applied before each call, as the replay applies it: a name "
                              "`compaction strategies` lists (default: none, what the log sent)")
    command.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                         help="a parameter of the strategy, e.g. --param keep_recent=5 (repeat for more)")
    command.add_argument("--call", type=int, default=-1, metavar="N",
                         help="the model call, from 0 as `replay --json` numbers them; negative counts from the "
                              "end (default -1: the last)")
    command.set_defaults(handler=command_composition)


def _strategy(args: argparse.Namespace):
    if args.strategy == NONE:
        if args.param:
            raise SettingsError("--strategy none takes no --param: no strategy acts")
        return build(AS_SENT), NONE_WORDS
    spec = lookup(args.strategy)
    return build(spec.name, spec.parse(args.param)), f"{spec.name}: {spec.title}"


def _call_number(wanted: int, calls: int, file) -> int:
    if not calls:
        raise SettingsError(f"{file}: no model call (no assistant message): nothing fills a context")
    number = wanted + calls if wanted < 0 else wanted
    if not 0 <= number < calls:
        raise SettingsError(f"--call {wanted}: {file} has calls 0 to {calls - 1:,} (or -1 to -{calls:,} from the end)")
    return number


def command_composition(args: argparse.Namespace) -> int:
    from compaction.replay.loop import replay

    settings = cli_common.settings_from(args)
    step, words = _strategy(args)  # a bad name or parameter stops before the file is read
    conversation = cli_common.load(args)
    result = replay(conversation, settings, strategy=step, store=cli_common.make_store(args),
                    summarizer=cli_common.make_summarizer(args, settings), model_window_tokens=args.model_window)
    call = _call_number(args.call, len(result.calls), args.file)
    record = result.calls[call]
    found = call_composition(result, call)
    data = {"input": {"file": str(args.file), "format": conversation.format, "messages": len(conversation.messages)},
            "strategy": {"name": args.strategy, "parameters": step.params, "words": words},
            "call": call, "calls": len(result.calls), "answers_message": record.index,
            "messages_sent": record.messages, "exact_tokens": record.exact, **found.as_dict(),
            "token_model": result.token_model.describe()}
    title = (f"{args.file}: {conversation.format}, {len(conversation.messages):,} messages; call {call:,} of "
             f"0-{len(result.calls) - 1:,} (answers message {record.index:,}, {record.messages:,} message{'' if record.messages == 1 else 's'} sent); "
             f"strategy {words}")
    return cli_common.emit(args, data, title, composition_table(found, record.exact))


def composition_table(found: Composition, exact: bool) -> str:
    total = found.tokens or 1
    lines = [f"{'kind':<34}{'tokens':>12}{'share':>9}{'characters':>14}"]
    for kind in KINDS:
        lines.append(f"{KIND_TITLES[kind]:<34}{found.kinds[kind]:>12,}{found.kinds[kind] / total:>9.1%}"
                     f"{found.chars[kind]:>14,}")
        if kind == "tool_results":
            for tool, tokens in found.tool_results_by_tool.items():
                lines.append(f"{'  ' + tool:<34}{tokens:>12,}{tokens / total:>9.1%}"
                             f"{found.tool_result_chars[tool]:>14,}")
    lines.append(f"{'total':<34}{found.tokens:>12,}")
    recorded = found.recorded_tokens
    source = "as the log recorded them" if exact else "as the replay estimates them"
    scale = found.scale or 1
    how = (f"{found.kinds['not_in_log']:,} more than the token model's {found.estimated_tokens:,} for what the log "
           "holds: not in the log" if scale > 1 else f"the token model says {found.estimated_tokens:,}" +
           ("" if scale == 1 else f"; each kind is its estimate times {scale:.3f}"))
    lines += ["", f"tokens {source}; {how}",
              f"the log recorded {recorded:,} tokens for this call ({found.tokens / recorded - 1:+.1%})"
              if recorded else "the log recorded no usage for this call"]
    return "\n".join(lines)
