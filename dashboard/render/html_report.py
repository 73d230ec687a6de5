"""A report to send after a demo: one self-contained HTML file about a pipeline run and its replay.

plotly.js is written into the file and nothing is fetched from anywhere else (no CDN, no web font, no
image), so it opens offline. Every string that comes from the conversation or its file name is escaped;
plotly escapes '<' in the figures' JSON itself. Used by the Pipeline page's "Download report" button and
by `python -m compaction report`. No Streamlit here.
"""

import html
from datetime import UTC, datetime
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from compaction.layers import PipelineResult
from compaction.model import HELP
from compaction.replay import ReplayResult
from dashboard.render import comparison
from dashboard.render.charts import waterfall_figure
from dashboard.render.compactions_report import compactions_section
from dashboard.render.fidelity_table import fidelity_frame, fidelity_of, fidelity_sentence
from dashboard.render.glossary import GLOSSARY
from dashboard.render.narrative import l4_headline, layer_captions
from dashboard.render.pairs import pair_verdict
from dashboard.render.price_words import priced_sentence, session_cost_sentence, session_cost_text
from dashboard.render.replay_chart import replay_figure
from dashboard.render.setting_words import setting_label
from dashboard.render.tables import placeholder_frame, snipped_frame
from dashboard.render.units import SHORT, UNIT_LABELS, convert, describe, dollars, percent

MAX_ROWS = 200  # rows of a table in the report; the rest are counted
CHART_CONFIG = {"displayModeBar": False, "responsive": True}
STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #222;
       max-width: 1100px; margin: 2rem auto; padding: 0 1.5rem; line-height: 1.5; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ddd; padding-bottom: 0.3rem; }
.lead { color: #555; } .figures { display: flex; gap: 2.5rem; flex-wrap: wrap; margin: 1rem 0; }
.figure b { display: block; font-size: 1.6rem; } .figure span { color: #555; font-size: 0.9rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; margin: 0.5rem 0 1rem; }
th, td { border-bottom: 1px solid #e5e5e5; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; padding: 0.8rem; white-space: pre-wrap; word-break: break-word; font-size: 0.85rem;
      max-height: 24rem; overflow: auto; }
.note { background: #eef4fb; padding: 0.6rem 0.9rem; border-radius: 6px; }
.alarm { background: #fdecec; padding: 0.6rem 0.9rem; border-radius: 6px; }
.ok { background: #edf7ee; padding: 0.6rem 0.9rem; border-radius: 6px; }
dt { font-weight: bold; } dd { margin: 0 0 0.5rem 1.5rem; }
footer { margin-top: 3rem; color: #777; font-size: 0.85rem; }
"""
# Totals the replay may carry (cost and loss measures), in the order shown, with their plain title.
MEASURES = {
    "cost_usd": "Modelled cost of every call, with prompt caching",
    "cost_usd_no_cache": "Modelled cost of every call, without prompt caching",
    "recorded_cost_usd": "What this session cost according to its log",
    "recorded_cost_basis": "Where that cost comes from: the run's totals (every per-call figure is estimated)",
    "cache_read_tokens": "Tokens read from the cache",
    "cache_write_tokens": "Tokens written to the cache",
    "blind_references": "Blind references: names the model used after compaction had removed where they appeared",
    "artifact_retention": "Artifacts still sent at the loop's last call (files, errors, the person's constraints)",
    "calibration": "Token estimate calibrated on the log's recorded usage",
}


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _table(headers: list[str], rows: list[list[Any]], numeric: set[int] = frozenset()) -> str:
    def cell(tag: str, index: int, value: Any) -> str:
        kind = ' class="number"' if index in numeric else ""
        text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
        return f"<{tag}{kind}>{esc(text)}</{tag}>"

    head = "".join(cell("th", i, header) for i, header in enumerate(headers))
    body = "".join("<tr>" + "".join(cell("td", i, value) for i, value in enumerate(row)) + "</tr>"
                   for row in rows[:MAX_ROWS])
    more = f"<p>… and {len(rows) - MAX_ROWS:,} more.</p>" if len(rows) > MAX_ROWS else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


def _chart(figure: go.Figure) -> str:
    figure.update_layout(template="plotly_white")
    return pio.to_html(figure, include_plotlyjs=False, full_html=False, config=CHART_CONFIG)


def _figure(value: str, label: str) -> str:
    return f'<div class="figure"><b>{esc(value)}</b><span>{esc(label)}</span></div>'


def _measure_value(name: str, value: Any) -> str:
    if (name.startswith("cost_usd") or name == "recorded_cost_usd") and isinstance(value, int | float):
        return dollars(value)
    if name == "artifact_retention" and isinstance(value, int | float):
        return percent(value)
    if name == "calibration" and isinstance(value, dict):
        parts = {"tokens_per_char": "tokens per character {:.3f}", "overhead_tokens": "overhead {:,.0f} tokens",
                 "median_abs_error": "median error {:.1%}", "calls": "fitted on {:,} calls"}
        return ", ".join(text.format(value[key]) for key, text in parts.items()
                         if isinstance(value.get(key), int | float)) or str(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.4g}"


def measures_section(totals: dict[str, Any]) -> str:
    """The cost and loss measures among a replay's totals, when it has them; '' when it has none."""
    rows = [[title, _measure_value(name, totals[name])] for name, title in MEASURES.items()
            if totals.get(name) is not None]
    if not rows:
        return ""
    return "<h2>Cost and what the model loses</h2>" + _table(["measure", "over the whole session"], rows)


def _pairs_section(result: PipelineResult) -> str:
    verdict = pair_verdict(result, limit=20)
    items = "".join(f"<li>{esc(text)}</li>" for text in verdict.problems)
    style = {"broken": "alarm", "kept": "note", "intact": "ok"}[verdict.level]
    colon = ":" if verdict.level != "kept" else ""
    return (f'<div class="{style}"><b>{esc(verdict.headline)}{colon}</b> {esc(verdict.text)}'
            f'{f"<ul>{items}</ul>" if items else ""}</div>')


def _settings_section(result: PipelineResult, replay: ReplayResult | None) -> str:
    rows = [[setting_label(name), value, HELP.get(name, "")] for name, value in result.settings.as_dict().items()]
    if replay is not None:
        rows.append(["Model window (tokens)", replay.model_window_tokens, "The most the model accepts in one call."])
    return "<h2>Settings</h2>" + _table(["setting", "value", "what it does"], rows, numeric={1})


def _replay_section(replay: ReplayResult | None) -> str:
    if replay is None:
        return ""
    if not replay.calls:
        return "<h2>Over the whole session</h2><p>The conversation has no model reply, so nothing to replay.</p>"
    totals = replay.totals
    compared, whole = comparison.range_label(replay), comparison.whole_label(replay)
    like = (_figure(f"{totals['tokens_sent_compared']:,}", f"tokens sent, {compared}")
            + _figure(f"{totals['raw_tokens_sent']:,}", f"without compaction, {compared}")
            + _figure(percent(totals["saved_share"]), f"saved vs no compaction, {compared}")
            + _figure(dollars(totals["cost_usd_compared"]), f"cost, {compared}")
            + _figure(dollars(totals["raw_cost_usd"]), f"cost without compaction, {compared}"))
    session = (_figure(f"{totals['calls']:,}", "model calls") + _figure(f"{totals['tokens_sent']:,}", f"tokens sent, {whole}")
               + _figure(dollars(totals["cost_usd"]), f"cost, {whole}")
               + _figure(session_cost_text(replay), "what this session cost (its log's run totals)"
                         if totals["recorded_from_totals"] else "what this session cost (its log)")
               + _figure(f"{totals['summaries']:,}", "summaries"))
    return ("<h2>Over the whole session</h2><p>Before every model call the four layers run on the history so far, "
            "as in the agent's loop. Grey: what each call would send without compaction; blue: what is sent; "
            "orange, for a log with usage: what the agent really sent. Sizes in estimated tokens, with the "
            f"overhead.</p><p><b>{esc(comparison.stop_headline(replay))}</b></p>"
            f'<h3>Like for like: {esc(compared)}</h3><div class="figures">{like}</div>'
            f'<h3>The whole session: {esc(whole)}</h3><div class="figures">{session}</div>'
            f"<p>{esc(session_cost_sentence(replay))} {esc(priced_sentence(replay))}</p>"
            + _chart(replay_figure(replay)) + _fidelity_section(replay) + measures_section(totals))


def _fidelity_section(replay: ReplayResult) -> str:
    found = fidelity_of(replay)
    if found is None:
        return ""
    frame = fidelity_frame(found)
    return ("<h3>How far to trust the what-if: the log's own compactions</h3>"
            + _table(list(frame.columns), frame.values.tolist()) + f"<p>{esc(fidelity_sentence(found, replay))}</p>")


def _changes_section(result: PipelineResult, unit: str) -> str:
    model = result.stages[0].history.token_model
    parts = ["<h2>What changed</h2>", "<p>Message numbers count the loaded conversation from 0.</p>"]
    size = f"size ({UNIT_LABELS[unit]})"
    snipped = snipped_frame(result, unit)
    parts.append("<h3>Snipped from the middle (L1)</h3>")
    parts.append(_table(["from message", "to message", "messages", size, "first line", "note left"],
                        snipped.values.tolist(), numeric={0, 1, 2, 3}) if len(snipped) else "<p>Nothing snipped.</p>")
    placeholders = placeholder_frame(result, unit)
    parts.append("<h3>Old tool results replaced by a placeholder (L2)</h3>")
    parts.append(_table(["message", "tool", "tool_use_id", f"original {size}", "placeholder", "layer"],
                        placeholders.values.tolist(), numeric={0, 3}) if len(placeholders)
                 else "<p>No placeholders.</p>")
    parts.append("<h3>Large outputs saved to disk (L3)</h3>")
    if not result.persisted:
        parts.append("<p>Nothing saved to disk.</p>")
    for event in result.persisted:
        parts.append(f"<details><summary>message {esc(event.index)}: {esc(event.tool)} · {esc(event.tool_use_id)} · "
                     f"{esc(describe(event.chars, unit, model))} on disk; the preview that stayed:</summary>"
                     f"<pre>{esc(event.preview)}</pre></details>")
    summary = result.summary
    parts.append("<h3>Summary (L4)</h3>")
    if summary is None or not summary.triggered:
        parts.append(f"<p>No summary: {esc(summary.reason if summary else 'L4 was not reached')}.</p>")
    elif summary.error:
        parts.append(f"<p>The summary failed, so the history stays as after L2: {esc(summary.error)}</p>")
    else:
        parts.append(f"<p>Written by the {esc(summary.summarizer)} summariser ({esc(summary.reason)}):</p>"
                     f"<pre>{esc(summary.text)}</pre>")
    return "".join(parts)


def report_html(result: PipelineResult, replay: ReplayResult | None, source: str, unit: str = "chars",
                view_note: str | None = None, cards: list | None = None) -> str:
    """The whole report as one HTML document. `view_note`: what the one pass ran on, for a log that
    compacted itself (dashboard/render/log_view.py); `cards`: the log's own compactions, opened
    (compaction.compactions), for a log that records some."""
    model = result.stages[0].history.token_model
    first, final = result.stages[0], result.final
    saved = 100 * (first.size - final.size) / first.size if first.size else 0.0
    l4_value, l4_reason = l4_headline(result)
    captions = layer_captions(result, unit)
    layers = "".join(f"<p><b>{layer}.</b> {esc(captions[layer])}</p>" for layer in ("L3", "L1", "L2", "L4"))
    figures = (_figure(describe(first.size, unit, model), f"loaded, {first.count:,} messages")
               + _figure(describe(final.size, unit, model), f"sent after one pass, {final.count:,} messages")
               + _figure(f"{saved:.1f} %", "saved, one pass") + _figure(l4_value, "L4 summary"))
    view = f'<p class="note">{esc(view_note)}</p>' if view_note else ""
    limit_words = SHORT[unit] if unit == "chars" else "tokens, without the overhead"
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    glossary = "".join(f"<dt>{esc(word)}</dt><dd>{esc(meaning.replace('*', ''))}</dd>"
                       for word, meaning in GLOSSARY.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Compaction report: {esc(source)}</title><style>{STYLE}</style>
<script type="text/javascript">{get_plotlyjs()}</script></head>
<body>
<h1>Compaction report</h1>
<p class="lead"><b>{esc(source)}</b> through the four compaction layers of the "s08 context compact" tutorial.
They run cheapest first: L3 saves huge outputs to disk, L1 snips the middle, L2 puts placeholders in place of
old tool results, and only if the history is still over CONTEXT_LIMIT does L4 ask a model for a summary
(the numbers are the tutorial's names, so the order is L3, L1, L2, L4).</p>
{view}
<h2>One pass over the loaded conversation</h2>
<div class="figures">{figures}</div>
<p>L4: {esc(l4_reason)}.</p>
{_pairs_section(result)}
{_settings_section(result, replay)}
<h2>Size after each layer</h2>
<p>Sizes in {esc(UNIT_LABELS[unit])}. The red line is CONTEXT_LIMIT
({convert(result.settings.context_limit, unit, model):,} {esc(limit_words)}).</p>
{_chart(waterfall_figure(result, unit))}
{layers}
{_replay_section(replay)}
{compactions_section(cards)}
{_changes_section(result, unit)}
<h2>Words used here</h2><dl>{glossary}</dl>
<footer>Made by Compaction Lab on {made}.</footer>
</body></html>
"""
