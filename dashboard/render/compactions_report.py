"""The report's section on the log's own compactions: the cards of the Compactions page, in HTML, each value
whole (the words are compaction_words.py's, as on the page). No Streamlit here."""

import html
from typing import Any

from compaction.compactions import CompactionCard
from dashboard.render import compaction_words as words


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _rows(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{_esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_esc(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def card_html(card: CompactionCard) -> str:
    summary = card.carried_on.summary
    reread = words.reread_rows(card)
    parts = [f"<h3>{_esc(words.card_title(card))}</h3>",
             _rows(["what", "value"], [list(row) for row in words.facts(card)]),
             '<div class="figures"><div style="flex:1;min-width:18rem"><b>What it replaced</b> (the call before, in tokens)',
             _rows(["kind", "tokens"], [list(row) for row in words.replaced_rows(card)]),
             '</div><div style="flex:1;min-width:18rem"><b>What it carried on</b>',
             _rows(["what", "value"], [list(row) for row in words.carried_rows(card)]),
             f"<pre>{_esc(summary)}</pre>" if summary is not None else "", "</div></div>",
             f"<p><b>Read again.</b> {_esc(words.reread_sentence(card))}</p>"]
    if reread:
        parts.append(_rows(["what", "name", "first in", "again in", "tokens", "cost"],
                           [[row[key] for key in ("what", "name", "before", "again", "tokens", "cost")] for row in reread]))
    parts.append(f"<p>{_esc(card.cost.basis)}</p>")
    preset = words.preset_sentence(card)
    if preset:
        parts.append(f"<p>{_esc(preset)}</p>")
    return "".join(parts)


def compactions_section(cards: list[CompactionCard] | None) -> str:
    """The section, or '' when there are no cards to show (a conversation that never compacted itself)."""
    if not cards:
        return ""
    return ("<h2>The agent's own compactions</h2>"
            f"<p>{_esc(words.cards_headline(cards))} Calls are numbered from 1, as on the dashboard's pages.</p>"
            + "".join(card_html(card) for card in cards))
