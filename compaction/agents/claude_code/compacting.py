"""Claude Code's auto-compact in a replay: the whole history becomes the summary, followed by what Claude
Code puts back (the files re-read, the plan, skills and to-do list), and the first call after carries
what after_compaction.py expects of it.

The summary's text is the replay's summariser's; its weight is the agent's own summary when the log
compacted within REACH_CALLS calls of here (the log's summary line, and the attachment lines after it),
else the summary size learnt by version. The re-read files are a message of their own holding each file's
latest content in the log (cut to Claude Code's limit), so what survives the compaction can be measured.
"""

from bisect import bisect_left

from compaction.agents.claude_code import rules
from compaction.agents.claude_code.after_compaction import (
    BASE_SHOWN,
    AfterScan,
    FirstCallAfter,
    Scanned,
    first_call_after,
    prompt_chars_of,
    text_rate,
)
from compaction.agents.claude_code.markers import SUMMARY_PREFIX
from compaction.agents.claude_code.recent_files import RecentFile, path_key, recent_files
from compaction.layers.summary import summarize_into
from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.model.message_tokens import message_tokens
from compaction.model.sizes import message_size

REACH_CALLS = 10  # the log's own compaction this near counts as this one (its summary, its attachments)
# The log's compactions this near each other (or to the session's start) are in a row: Claude Code compacted
# again because what it kept was still over its threshold (a thrash), or the session started over it
IN_A_ROW_CALLS = 3
IN_A_ROW = "compactions in a row: what the log's first call after it carried"
REREAD_OPENING = "<system-reminder>\nClaude Code read these files again after the compaction:"


def next_index(history: History) -> int:
    """The original index of the call about to be made: just after the newest original message (and after
    the agent's own summaries, which the replay does not append)."""
    found = next((origin + 1 for origin in reversed(history.origins) if origin is not None), 0)
    while found in history.recorded.agent_summaries:
        found += 1
    return found


def _calls(history: History) -> list[int]:
    return history.shared_value("claude_code_calls", lambda: [i for i, m in enumerate(history.originals)
                                                              if m.get("role") == "assistant"])


def nearby_boundary(history: History, index: int) -> dict | None:
    """The log's own compaction within REACH_CALLS calls of a compaction before the call at `index`."""
    calls = _calls(history)
    here = bisect_left(calls, index)
    best = None
    for boundary in history.recorded.boundaries:
        at = boundary.get("index") if isinstance(boundary, dict) else None
        if isinstance(at, int) and abs(bisect_left(calls, at) - here) <= REACH_CALLS \
                and (best is None or abs(at - index) < abs(best["index"] - index)):
            best = boundary
    return best


def _first_call_at(history: History, at: int) -> int | None:
    """The position (among the calls) of the first call after the log's compaction at message `at`."""
    calls = _calls(history)
    position = bisect_left(calls, at)
    return position if position < len(calls) else None


def in_a_row(history: History, boundary: dict) -> bool:
    """Whether the log's compaction is one of several in a row (another within IN_A_ROW_CALLS calls of it),
    or came within IN_A_ROW_CALLS calls of the session's start (the session began over the threshold)."""
    here = _first_call_at(history, boundary["index"])
    if here is None:
        return False
    if here < IN_A_ROW_CALLS:
        return True
    for other in history.recorded.boundaries:
        at = other.get("index") if isinstance(other, dict) else None
        if isinstance(at, int) and at != boundary["index"] and other.get("trigger") != "manual":
            there = _first_call_at(history, at)
            if there is not None and abs(there - here) <= IN_A_ROW_CALLS:
                return True
    return False


def carried_after(history: History, boundary: dict) -> int | None:
    """What the first call after the log's compaction carried, less what was sent between the summary and
    it (at the session's rate): the kept part, as the log shows it. None when that call recorded nothing."""
    position = _first_call_at(history, boundary["index"])
    usage = history.recorded.usage
    if position is None:
        return None
    call = _calls(history)[position]
    recorded = recorded_context(usage[call]) if call < len(usage) else None
    if not recorded:
        return None
    calibration = history.calibration
    per_char = text_rate(calibration.tokens_per_char if calibration else None)
    sent = sum(history.prepared.sizes[i] + 2 for i in range(boundary["index"] + 1, call))
    return max(round(recorded - per_char * sent), 0)


def expected_after(history: History, index: int, version: str | None) -> FirstCallAfter:
    """What the first call after a compaction before the call at `index` carries (after_compaction.py),
    from the log's messages up to there; for one of the log's compactions in a row, what the log shows the
    first call after it carried."""
    originals, prepared = history.originals, history.prepared
    usage = history.recorded.usage
    first = next((i for i in _calls(history) if i < len(usage) and recorded_context(usage[i])), None)
    own = nearby_boundary(history, index)
    if own is not None and own.get("trigger") != "manual" and in_a_row(history, own):
        carried = carried_after(history, own)
        if carried is not None:
            return FirstCallAfter(carried, f"{carried:,} tokens ({IN_A_ROW})", (("base", carried),))
    summary = prepared.sizes[own["index"]] if own is not None and own["index"] in history.recorded.agent_summaries \
        else None
    calibration = history.calibration
    per_char = calibration.tokens_per_char if calibration else None
    shown = _base_shown(history, index, version)
    found = first_call_after(
        originals[:index], version, first_call_tokens=recorded_context(usage[first]) if first is not None else None,
        first_call_index=first or 0, tokens_per_char=per_char,
        base_tokens=shown if shown is not None or first is not None else history.token_model.tokens(history.overhead),
        base_source=BASE_SHOWN if shown is not None else None,
        summary_chars=summary, attachments=own.get("attachments") if own is not None else None,
        start_attachments=list(history.recorded.start_attachments), scan=_scanned(history, index),
        prompt_chars=_prompt_chars(history, index, first))
    carried = carried_after(history, own) if own is not None else None
    return capped_base(found, carried) if carried is not None else found


def capped_base(found: FirstCallAfter, carried: int) -> FirstCallAfter:
    """`found` with its system prompt and tools no larger than the log's own first call after a compaction
    here shows them: that call carried them and more. A session's first call can carry much more than its
    prompt and the base (a session resumed with its earlier conversation), and the base measured from it
    then leaves a compaction above its own threshold."""
    excess = min(found.tokens - carried, found.part("base"))
    if excess <= 0:
        return found
    parts = tuple((name, tokens - excess if name == "base" else tokens) for name, tokens in found.parts)
    total = found.tokens - excess
    return FirstCallAfter(total, f"{total:,} tokens: {found.basis.split(': ', 1)[-1]}; the system prompt and tools "
                          f"less {excess:,} (the log's first call after its own compaction carried {carried:,})",
                          parts, found.files, found.attached)


class _Prefixes:
    """The session's messages scanned once, forward, with what each prefix asked for shows (Scanned): a
    sweep's cells compact before most calls, in no order."""

    def __init__(self, originals: list):
        self.originals, self.scan, self.seen = originals, AfterScan(), {0: AfterScan().view()}

    def at(self, index: int) -> Scanned:
        found = self.seen.get(index)
        if found is None:
            scan = self.scan if index >= self.scan.taken else AfterScan()
            while scan.taken < index:
                scan.add(self.originals[scan.taken])
                if scan is self.scan and scan.taken < index and self._called(scan.taken):
                    self.seen.setdefault(scan.taken, scan.view())  # on the way: a later ask costs nothing
            found = self.seen[index] = scan.view()
        return found

    def _called(self, index: int) -> bool:
        return index < len(self.originals) and self.originals[index].get("role") == "assistant"


def _prompt_chars(history: History, end: int, first: int | None) -> int:
    """prompt_chars_of the session's messages before `end`, at most `first` (the first recorded call): from
    their running sums, worked out once per conversation."""
    def build() -> list[int]:
        sums = [0]
        for message in history.originals[:first or 0]:
            sums.append(sums[-1] + prompt_chars_of([message], 1))
        return sums
    return history.shared_value(("claude_code_prompt_sums", first), build)[min(end, first or 0)]


def _scanned(history: History, index: int) -> Scanned:
    return history.shared_value("claude_code_prefixes", lambda: _Prefixes(history.originals)).at(index)


def _base_shown(history: History, index: int, version: str | None) -> int | None:
    """What every call carries besides the conversation (system prompt, tools, what Claude Code loads at
    start) as the log's newest compaction before the call at `index` shows it: the first call after that
    compaction, less what the model says it carried besides (summary, files, plan, to-do list) and the
    messages sent before it. None when the log shows no such call before `index`.

    The system prompt and tools change within a session (MCP servers connected, tools deferred to a tool
    search, a model switch: real sessions went from 168,900 to about 38,000 tokens at a compaction), and
    what Claude Code loads at start is re-injected as it is then; the session's own figure holds both."""
    usage, calls = history.recorded.usage, _calls(history)
    shown: list[tuple[int, int]] = []  # (the first call after a compaction, the compaction's index)
    for boundary in history.recorded.boundaries:
        at = boundary.get("index") if isinstance(boundary, dict) else None
        if not isinstance(at, int) or bisect_left(calls, at) >= len(calls):
            continue
        call = calls[bisect_left(calls, at)]
        if call < index and call < len(usage) and recorded_context(usage[call]):
            shown.append((call, at))
    if not shown:
        return None
    call, at = max(shown)
    before = _after(history, at, version)
    calibration = history.calibration
    per_char = text_rate(calibration.tokens_per_char if calibration else None)
    sent = sum(history.prepared.sizes[i] + 2 for i in range(at + 1, call))  # after the summary, before the call
    return max(round((recorded_context(usage[call]) or 0) - (before.tokens - before.part("base")) - per_char * sent), 0)


def _after(history: History, index: int, version: str | None) -> FirstCallAfter:
    """expected_after, once per conversation, call and version (it depends on nothing else)."""
    return history.shared_value(("claude_code_after", index, version), lambda: expected_after(history, index, version))


def _reread_message(history: History, index: int, after: FirstCallAfter) -> dict | None:
    """The files Claude Code read again, each with its latest content in the log (cut to its limit): those
    the log's attachment lines name, else those modelled."""
    files = after.files
    if after.attached:
        known = {path_key(f.path): f for f in recent_files(history.originals[:index], len(history.originals))}
        files = tuple(known.get(path_key(path), RecentFile(path, None, None)) for path in after.attached)
    if not files and not after.part("plan and skills") and not after.part("to-do list"):
        return None
    per_char = after.part("files") / max(sum(f.chars or 0 for f in files), 1) if files else 0.28
    cap = int(rules.RESTORE_TOKENS_PER_FILE / per_char) if per_char > 0 else 20_000
    parts = [REREAD_OPENING]
    for file in files:
        text = file.text if file.text is not None else "(its content is not in the log)"
        parts.append(f"\n{file.path}:\n{text[:cap]}")
    for name in ("plan and skills", "to-do list"):
        if after.part(name):
            parts.append(f"\n(and the {name}, as Claude Code keeps them)")
    return {"role": "user", "content": "\n".join(parts) + "\n</system-reminder>"}


def compact(history: History, version: str | None, reason: str, summarizer, store) -> tuple[History, list]:
    """The history summarised and followed by what Claude Code re-attaches (made_tokens says what they weigh)."""
    index = next_index(history)
    after = _after(history, index, version)
    result = summarize_into(history, len(history.messages), SUMMARY_PREFIX, f"{reason}; {after.basis}",
                            "auto_compact", summarizer, store)
    if result.history is history:  # the summariser failed: nothing changed
        return history, list(result.events)
    compacted = result.history
    reread = _reread_message(history, index, after)
    if reread is not None:
        compacted = compacted.derive(compacted.messages + [reread], compacted.sizes + [message_size(reread)],
                                     compacted.origins + [None])
    return compacted, list(result.events)


def made_tokens(history: History, version: str | None, call: int) -> dict[int, tuple[dict, float]]:
    """What the messages a compaction of this preset made weigh (message_tokens.history_tokens' `made`):
    the summary at the head of the history and the files read again after it carry, with the fixed part,
    what after_compaction expects of the first call after. Worked out from the history itself: the
    compaction was before the call whose response is the first of the log's messages after them (`call`,
    the original index of the call about to be made, when none follows yet)."""
    messages, origins = history.messages, history.origins
    if not messages or origins[0] is not None or not str(messages[0].get("content", "")).startswith(SUMMARY_PREFIX):
        return {}
    reread = len(messages) > 1 and origins[1] is None and str(messages[1].get("content", "")).startswith(REREAD_OPENING)
    index = next((origin for origin in origins if origin is not None), call)
    after = _after(history, index, version)
    rest = after.part("files") + after.part("plan and skills") + after.part("to-do list") if reread else 0
    found = {id(messages[0]): (messages[0], after.tokens - message_tokens(history)[1] - rest)}
    if reread:
        found[id(messages[1])] = (messages[1], rest)
    return found
