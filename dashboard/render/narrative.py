"""Plain-language sentences about a pipeline run, for people who have never read the tutorial."""

from collections import Counter

from compaction.agents import agent_of
from compaction.layers import FATES, PipelineResult, message_fates
from compaction.words import plural  # noqa: F401 (the pages import it from here too)
from dashboard.render import layer_amounts
from dashboard.render.units import SHORT, compact_number, describe


def layer_captions(result: PipelineResult, unit: str) -> dict[str, str]:
    """One sentence per layer saying what it did to this conversation, and why."""
    settings = result.settings
    model = result.stages[0].history.token_model
    sizes = {stage.layer: stage.size for stage in result.stages}
    counts = {stage.layer: stage.count for stage in result.stages}
    captions = {"input": f"The conversation as loaded: {plural(counts['input'], 'message')}, "
                         f"{describe(sizes['input'], unit, model)}."}
    if result.persisted:
        biggest = max(result.persisted, key=lambda event: event.chars)
        captions["L3"] = (f"Saved {plural(len(result.persisted), 'large tool output')} to disk (the largest, "
                          f"{biggest.tool}, was {describe(biggest.chars, unit, model)}) and kept only a "
                          f"{settings.preview_chars:,}-character preview of each in the conversation.")
    else:
        captions["L3"] = (f"Nothing saved to disk: L3 looks only at the newest message's tool results, and only "
                          f"when they total more than the L3 budget of {settings.max_bytes:,} characters; "
                          f"then it saves outputs longer than PERSIST_THRESHOLD ({settings.persist_threshold:,}).")
    if result.snipped:
        dropped = sum(snipped.count for snipped in result.snipped)
        captions["L1"] = (f"Dropped {plural(dropped, 'message')} from the middle, keeping the first "
                          f"{settings.keep_head} (the task) and the newest ones, so at most "
                          f"{settings.max_messages:,} remain; a short marker says how many were cut.")
    else:
        captions["L1"] = (f"Nothing snipped: {plural(counts['L3'], 'message')} is not more than "
                          f"max_messages ({settings.max_messages:,}).")
    if result.placeholders:
        removed = layer_amounts.removed(result, "L2", unit)
        messages = len({event.index for event in result.placeholders})
        captions["L2"] = (f"Replaced {plural(len(result.placeholders), 'old tool result')} in "
                          f"{plural(messages, 'message')} ({compact_number(removed)} {SHORT[unit]} removed) with a one-line "
                          f"placeholder each; the newest {settings.keep_recent} tool results stay whole (KEEP_RECENT).")
    else:
        captions["L2"] = (f"No placeholders: every old tool result is among the newest {settings.keep_recent} "
                          f"(KEEP_RECENT) or too short to be worth replacing.")
    summary = result.summary
    if summary is None or not summary.triggered:
        captions["L4"] = (f"No summary needed: what is left fits under CONTEXT_LIMIT "
                          f"({settings.context_limit:,} characters), so no LLM call is made.")
    elif summary.error:
        captions["L4"] = (f"The summary was needed ({summary.reason}) but failed, so the history stays as after "
                          f"L2: {summary.error}")
    else:
        captions["L4"] = (f"Still over CONTEXT_LIMIT ({summary.reason}), so the whole history was saved to a "
                          f"transcript and replaced by one summary written by the {summary.summarizer} "
                          f"summariser.")
    return captions


def fate_counts(result: PipelineResult) -> dict[str, int]:
    """How many original messages met each fate, in the legend's order (zero counts left out)."""
    counts = Counter(message_fates(result))
    return {fate: counts[fate] for fate in FATES if counts[fate]}


def l4_headline(result: PipelineResult) -> tuple[str, str]:
    """The L4 metric's value and its explanation."""
    summary = result.summary
    if summary is None or not summary.triggered:
        return "not needed", summary.reason if summary else "L4 was not reached"
    if summary.error:
        return "failed", f"{summary.reason}; {summary.error}"
    return f"fired ({summary.summarizer})", summary.reason


def agent_title(conversation) -> str:
    """The title of the agent whose log `conversation` is, or "The agent" for a generic format."""
    found = agent_of(conversation.format)
    return found.title if found else "The agent"


TRIGGER_WORDS = {"auto": "automatically", "manual": "asked by the person"}


def _how(boundary: dict) -> str:
    """' (automatically, 167,091 tokens before)': what the log says of one compaction; '' when nothing."""
    trigger = boundary.get("trigger")
    parts = [TRIGGER_WORDS.get(trigger, trigger)] if isinstance(trigger, str) and trigger not in ("?", "unknown") \
        else []
    if isinstance(boundary.get("pre_tokens"), int):
        parts.append(f"{boundary['pre_tokens']:,} tokens before")
    return f" ({', '.join(parts)})" if parts else ""


def loading_notes(metadata: dict, agent: str = "The agent") -> list[str]:
    """What a loader learned about the file beyond its messages (an agent's session log: `agent` is its
    title), in plain words."""
    notes = []
    boundaries = metadata.get("compact_boundaries") or []
    if boundaries:
        where = ", ".join(f"message {b.get('index')} of the loaded conversation" + _how(b) for b in boundaries)
        times = "once" if len(boundaries) == 1 else f"{len(boundaries)} times"
        notes.append(f"{agent} already compacted this session {times}: at {where}. "
                     "The summary it wrote is a message like any other here.")
    skipped = {"sidechain_lines_skipped": "line of a subagent (sidechain)",
               "branch_lines_skipped": "line of an abandoned branch (rewind)",
               "unknown_lines_skipped": "line of a kind the importer does not know"}
    counts = [plural(metadata[key], text.split(" ", 1)[0]) + " " + text.split(" ", 1)[1]
              for key, text in skipped.items() if metadata.get(key)]
    if counts:
        notes.append("Left out: " + "; ".join(counts) + ".")
    return notes
