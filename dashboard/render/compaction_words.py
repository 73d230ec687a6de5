"""The agent's own compactions in words and rows, as the Compactions page, the report and the tour of your
own session show them (the cards are compaction.compactions'). Every value is written whole. No Streamlit.
"""

from compaction.compactions import CompactionCard
from compaction.measures import KIND_TITLES
from compaction.strategies import REGISTRY
from dashboard.render.narrative import plural

TRIGGERS = {"auto": "automatic: the context was full", "manual": "the person typed /compact",
            "unknown": "the log does not say why"}
REREAD_KINDS = {"file": "file", "request": "the same request", "error": "the same error"}


def money(value: float | None) -> str:
    """Dollars with cents, and to the hundredth of a cent below a dollar (a compaction costs cents)."""
    if value is None:
        return "–"
    return f"${value:,.2f}" if value >= 1 else f"${value:,.4f}"


def tokens(value: int | None) -> str:
    return "–" if value is None else f"{value:,}"


def trigger_words(card: CompactionCard) -> str:
    """Why it compacted, as the log writes it, in words; the person's focus text whole."""
    written = card.trigger or "unknown"
    words = f"{written} ({TRIGGERS.get(written, 'as the log writes it')})"
    if card.focus:
        words += f", asking it to keep: {card.focus}"
    return words


def card_title(card: CompactionCard) -> str:
    where = f"before call {card.call:,}" if card.call is not None else "after the last call"
    return f"Compaction {card.number:,}, {where}"


def facts(card: CompactionCard) -> list[tuple[str, str]]:
    """(what, value) rows: when, why, the tokens before and after, what it took and cost."""
    rows = [("When", card.time or "the log does not say"), ("Why", trigger_words(card)),
            ("Tokens before (the log's count)", tokens(card.tokens_before)),
            ("Tokens after (the first call after, as recorded)", tokens(card.tokens_after))]
    if card.post_tokens is not None:
        rows.append(("What the log says it kept (postTokens)", tokens(card.post_tokens)))
    if card.duration_ms is not None:
        rows.append(("Time it took", f"{card.duration_ms / 1000:,.1f} s"))
    cost = card.cost
    rows += [("The compaction call (estimated)", money(cost.call_usd)),
             ("The cache written again by the first call after", money(cost.written_again_usd)),
             ("Cost in all", money(cost.total_usd))]
    return rows


def replaced_rows(card: CompactionCard) -> list[tuple[str, str]]:
    """(kind, tokens) of what the call before the compaction carried, largest first, tools apart."""
    if not card.replaced:
        return []
    kinds = card.replaced["kinds"]
    rows = []
    for kind, amount in sorted(kinds.items(), key=lambda item: -item[1]):
        if amount:
            rows.append((KIND_TITLES.get(kind, kind), tokens(amount)))
            if kind == "tool_results":
                rows += [(f"· {tool}", tokens(value)) for tool, value in card.replaced["tool_results_by_tool"].items()]
    return rows + [("in all", tokens(card.replaced["total_tokens"]))]


def carried_rows(card: CompactionCard) -> list[tuple[str, str]]:
    """(what, value) of what it carried on besides the summary's text."""
    carried = card.carried_on
    rows = [("Summary", f"{carried.summary_chars:,} characters ({carried.summary_note or 'as the agent wrote it'})")]
    if carried.files:
        rows.append((f"Files attached again ({carried.files_note})", "; ".join(carried.files)))
    rows += [(part.capitalize(), f"{amount:,} tokens") for part, amount in carried.plan_and_todos]
    if carried.kept_note:
        rows.append(("Messages kept", carried.kept_note))
    return rows


def reread_rows(card: CompactionCard) -> list[dict[str, str]]:
    """One row per name the agent fetched again after the compaction lost it."""
    return [{"what": REREAD_KINDS.get(item.kind, item.kind), "name": item.name,
             "before": f"message {item.first_index:,} ({item.tool_before})",
             "again": f"message {item.again_index:,} ({item.tool_again})",
             "tokens": tokens(item.tokens), "cost": money(item.cost_usd)} for item in card.reread]


def reread_sentence(card: CompactionCard) -> str:
    if not card.reread:
        return ("Nothing it replaced had to be read again: every file, request and error it met again was "
                "named in what it carried on, or never came back.")
    return (f"The agent fetched {plural(len(card.reread), 'thing')} again that this compaction lost: "
            f"{card.reread_tokens:,} tokens, {money(card.reread_cost_usd)} to write them to the cache again.")


def preset_sentence(card: CompactionCard) -> str:
    found = card.preset
    if found is None:
        return ""
    title = preset_title(found.preset)
    if found.call is None:
        return f"The {title} preset, replayed on this log, did not compact here."
    apart = found.calls_apart
    when = "at the same call" if apart == 0 else \
        f"{plural(abs(apart), 'call')} {'later' if apart and apart > 0 else 'earlier'}" if apart is not None else ""
    after = f"; its first call after carried {found.tokens_after:,} tokens" if found.tokens_after is not None else ""
    off = f" ({found.after_error:+.0%} from the log's)" if found.after_error is not None else ""
    return (f"The {title} preset, replayed on this log, compacted before call {found.call:,} ({when}){after}"
            f"{off}." + (f" What it carried: {found.carried}" if found.carried else ""))


def cards_headline(cards: list[CompactionCard]) -> str:
    """One sentence over every card: how many, by whom, the cost, what was read again."""
    if not cards:
        return "The log records no compaction of its own."
    manual = sum(card.trigger == "manual" for card in cards)
    cost = sum(card.cost.total_usd or 0 for card in cards)
    again = sum(len(card.reread) for card in cards)
    again_cost = sum(card.reread_cost_usd for card in cards)
    who = f"{len(cards) - manual:,} by the agent itself, {manual:,} asked for by the person" if manual else \
        "every one by the agent itself" if len(cards) > 1 else "by the agent itself"
    times = "once" if len(cards) == 1 else "twice" if len(cards) == 2 else f"{len(cards):,} times"
    return (f"This session compacted {times} ({who}). Together they cost {money(cost)}; afterwards "
            f"the agent fetched {plural(again, 'lost thing')} again ({money(again_cost)}).")


def preset_title(name: str) -> str:
    """The preset as its agent's own title names it (the registry's label), its id where it has none."""
    entry = REGISTRY.get(name)
    return entry.label if entry is not None else name
