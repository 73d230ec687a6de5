"""`compaction composition FILE`: what fills the context of one model call, by kind, in tokens.

The call (the last by default; numbered from 1, as the pages and `replay --json` number them) is taken from a replay
of the file, with the strategy applied as the replay applies it. Without --strategy (`none`) no strategy
of the lab acts and nothing is replayed: the history is what the log sent, its agent's own compactions as
recorded (the whole history for a log that never compacted; what the as-recorded strategy sends), and its
tokens are the recorded ones where the log has usage.
"""

import argparse

from compaction.cli import common as cli_common
from compaction.errors import SettingsError
from compaction.measures.composition import KIND_TITLES, KINDS
from compaction.measures.composition_tokens import Composition, call_composition, sent_composition
from compaction.model.tokens import TokenModel
from compaction.replay.lookups import call_number
from compaction.strategies import build, lookup

NONE = "none"
NONE_WORDS = "none: what the log sent, its agent's own compactions as recorded"


def add_command(subparsers) -> None:
    command = subparsers.add_parser("composition", help="what fills the context of one model call, by kind "
                                    "(system prompt and tools, the person, replies, thinking, tool calls, tool "
                                    "results by tool, summaries, placeholders, previews), in tokens")
    cli_common.add_file_flags(command)
    cli_common.add_json_flag(command)
    cli_common.add_setting_flags(command)
    cli_common.add_model_window_flag(command)
    command.add_argument("--strategy", default=NONE, metavar="NAME",
                         help="the strategy applied before each call, as the replay applies it: a name "
                              "`compaction strategies` lists (default: none, what the log sent)")
    command.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                         help="a parameter of the strategy, e.g. --param keep_recent=5 (repeat for more)")
    command.add_argument("--call", type=int, default=-1, metavar="N",
                         help="the model call, from 1 as the pages and `replay --json` number them; negative "
                              "counts from the end (default -1: the last)")
    command.set_defaults(handler=command_composition)


def _strategy(args: argparse.Namespace):
    """(the step function, its words); None for `none`: what the log sent, no replay needed."""
    if args.strategy == NONE:
        if args.param:
            raise SettingsError("--strategy none takes no --param: no strategy acts")
        return None, NONE_WORDS
    spec = lookup(args.strategy)
    return build(spec.name, spec.parse(args.param)), f"{spec.name}: {spec.title}"


def _call_number(wanted: int, calls: int, file) -> int:
    """The position (from 0) of the call numbered `wanted` (from 1; negative: from the end)."""
    if not calls:
        raise SettingsError(f"{file}: no model call (no assistant message): nothing fills a context")
    number = wanted + calls if wanted < 0 else wanted - 1
    if wanted == 0 or not 0 <= number < calls:
        raise SettingsError(f"--call {wanted}: {file} has calls 1 to {calls:,} (or -1 to -{calls:,} from the end)")
    return number


def _composed(args: argparse.Namespace, step, conversation) -> tuple[Composition, int, int, int, int, bool, TokenModel]:
    """(composition, call, calls, message it answers, messages sent, exact, token model) of the call asked."""
    from compaction.model.history import prepare
    from compaction.replay.loop import replay

    history = prepare(conversation)
    if step is None:  # what the log sent: measured straight from the log, as the as-recorded strategy keeps it
        indices = [i for i, message in enumerate(history.messages) if message.get("role") == "assistant"]
        call = _call_number(args.call, len(indices), args.file)
        found, sent = sent_composition(history, indices[call])
        return found, call, len(indices), indices[call], sent, found.recorded_tokens is not None, history.token_model
    settings = cli_common.settings_from(args)
    result = replay(history, settings, strategy=step, store=cli_common.make_store(args),
                    summarizer=cli_common.make_summarizer(args, settings), model_window_tokens=args.model_window)
    call = _call_number(args.call, len(result.calls), args.file)
    record = result.calls[call]
    return (call_composition(result, call), call, len(result.calls), record.index, record.messages, record.exact,
            result.token_model)


def command_composition(args: argparse.Namespace) -> int:
    step, words = _strategy(args)  # a bad name or parameter stops before the file is read
    conversation = cli_common.load(args)
    found, call, calls, index, sent, exact, model = _composed(args, step, conversation)
    data = {"input": {"file": str(args.file), "format": conversation.format, "messages": len(conversation.messages)},
            "strategy": {"name": args.strategy, "parameters": step.params if step else {}, "words": words},
            "call": call_number(call), "calls": calls, "answers_message": index, "messages_sent": sent, "exact_tokens": exact,
            **found.as_dict(), "token_model": model.describe()}
    title = (f"{args.file}: {conversation.format}, {len(conversation.messages):,} messages; call {call_number(call):,} of "
             f"{calls:,} (answers message {index:,}, {sent:,} message{'' if sent == 1 else 's'} sent); "
             f"strategy {words}")
    return cli_common.emit(args, data, title, composition_table(found, exact))


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
