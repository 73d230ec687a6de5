"""`compaction compactions FILE`: each compaction the log records, opened: the call after it (numbered from
1, as the pages number calls), when and why, the tokens before and after, what it replaced and carried on,
what it cost, what the agent read again because it was lost, and where the agent's own preset compacted
beside it (replayed at its defaults with the offline summariser; --no-preset skips that replay)."""

import argparse

from compaction.cli import common as cli_common
from compaction.compactions import CompactionCard, compaction_cards, own_preset, presets_beside
from compaction.measures.cost import DEFAULT_PRICES


def add_command(subparsers) -> None:
    command = subparsers.add_parser("compactions", help="each compaction the log records, opened: when and why, "
                                    "tokens before and after, what it replaced and carried on, its cost, what "
                                    "the agent read again, and the agent's own preset beside it")
    cli_common.add_file_flags(command)
    cli_common.add_json_flag(command, "the cards")
    command.add_argument("--no-preset", action="store_true",
                         help="do not replay the agent's own preset to set beside each compaction")
    cli_common.add_model_window_flag(command)
    command.set_defaults(handler=command_compactions)


def command_compactions(args: argparse.Namespace) -> int:
    from compaction.model.history import prepare
    from compaction.model.settings import DEFAULTS
    from compaction.replay.loop import replay

    conversation = cli_common.load(args)
    history = prepare(conversation)
    preset = None if args.no_preset else own_preset(conversation.format)
    beside = None
    if preset is not None and history.recorded.boundaries:
        result = replay(history, DEFAULTS, store=cli_common.make_store(args), strategy=preset,
                        summarizer=cli_common.make_summarizer(args, DEFAULTS), model_window_tokens=args.model_window,
                        keep_histories=False)
        beside = presets_beside(result)
    cards = compaction_cards(history, conversation.format, DEFAULT_PRICES, beside)
    data = {"input": {"file": str(args.file), "format": conversation.format, "messages": len(conversation.messages)},
            "preset": preset, "compactions": [card.as_dict() for card in cards]}
    title = (f"{args.file}: {conversation.format}, {len(conversation.messages):,} messages; "
             f"{len(cards):,} compaction{'' if len(cards) == 1 else 's'} recorded")
    return cli_common.emit(args, data, title, "\n\n".join(card_text(card) for card in cards)
                           or "the log records no compaction of its own")


def _money(value: float | None) -> str:
    return "-" if value is None else f"US${value:,.4f}"


def _tokens(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def card_text(card: CompactionCard) -> str:
    """One card as lines of text: every value whole."""
    trigger = card.trigger or "not said"
    if card.focus:
        trigger += f" (the person's focus: {card.focus})"
    where = f"before call {card.call:,}" if card.call is not None else "after the last call"
    lines = [f"compaction {card.number:,}: {where}, message {card.index:,}, at {card.time or 'an unrecorded time'}; "
             f"trigger {trigger}",
             f"  tokens before {_tokens(card.tokens_before)}, after {_tokens(card.tokens_after)}"
             + (f", postTokens {card.post_tokens:,}" if card.post_tokens is not None else "")
             + (f"; took {card.duration_ms / 1000:,.1f} s" if card.duration_ms is not None else "")]
    if card.replaced:
        kinds = ", ".join(f"{kind} {tokens:,}" for kind, tokens in card.replaced["kinds"].items() if tokens)
        lines.append(f"  replaced (the call before, {card.replaced['total_tokens']:,} tokens): {kinds}")
    carried = card.carried_on
    lines.append(f"  carried on: summary {carried.summary_chars:,} characters ({carried.summary_note or 'as written'})")
    if carried.files:
        lines.append(f"  files attached again ({carried.files_note}): {', '.join(carried.files)}")
    for part, tokens in carried.plan_and_todos:
        lines.append(f"  {part}: {tokens:,} tokens")
    if carried.kept_note:
        lines.append(f"  kept: {carried.kept_note}")
    lines.append(f"  cost {_money(card.cost.total_usd)}: {card.cost.basis}")
    lines.append(f"  read again ({len(card.reread):,}, {card.reread_tokens:,} tokens, {_money(card.reread_cost_usd)})"
                 + (":" if card.reread else ": nothing"))
    for item in card.reread:
        lines.append(f"    {item.kind} {item.name} (message {item.first_index:,} by {item.tool_before}, again at "
                     f"message {item.again_index:,} by {item.tool_again}): {item.tokens:,} tokens, {_money(item.cost_usd)}")
    if card.preset is not None:
        at = f"before call {card.preset.call:,}" if card.preset.call is not None else "never"
        lines.append(f"  the {card.preset.preset} preset compacted {at}"
                     + (f" ({card.preset.calls_apart:+,} calls)" if card.preset.calls_apart is not None else "")
                     + (f": {card.preset.carried}" if card.preset.carried else ""))
    return "\n".join(lines)
