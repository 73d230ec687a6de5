"""What fills the context, as sections of the pages that show it: the loaded conversation's last call
(Conversation), every call of the replay and the call picked (Replay), and a followed session now and
after its next compaction (Live). The pictures are dashboard/render/composition_chart.py's."""

import streamlit as st

from compaction.live import agent_rule, live_composition
from compaction.measures import (
    NOT_IN_LOG,
    compositions_along,
    sent_composition,
    uncompacted_along,
    uncompacted_composition,
)
from compaction.replay import call_number, uncompacted_tokens
from dashboard.render.composition_chart import composition_area, composition_bars, live_bars
from dashboard.render.text import literal
from dashboard.render.timeline import STRATEGY_TITLES
from dashboard.ui import state

CONFIG = {"displayModeBar": False}
_ALONG = "_composition_along"  # id(replay) -> (the replay, its compositions, without compaction)
_ALONG_KEPT = 4
KINDS_NOTE = ("Each kind is measured in characters as the replay measures them and turned into tokens by this "
              "log's token model. *Not in the log*: what a call carried beyond what the log holds (an agent that "
              "re-reads files after its compaction does not log them). An image weighs the characters of its data, "
              "as the token model counts it (the API bills about width × height / 750 tokens).")


def along(result):
    """The composition of every call of `result` with its strategy and without compaction, worked out once
    per replay (the replay itself is cached by the session's state)."""
    cache = st.session_state.setdefault(_ALONG, {})
    found = cache.get(id(result))
    if found is None or found[0] is not result:
        if len(cache) >= _ALONG_KEPT:
            cache.clear()
        found = cache[id(result)] = (result, compositions_along(result), uncompacted_along(result))
    return found[1], found[2]


def _recorded_words(found) -> str:
    if found.recorded_tokens is None:
        return f"{found.tokens:,} tokens, estimated (the log recorded no usage for it)"
    return f"{found.tokens:,} tokens, what the log recorded for it"


def conversation_section() -> None:
    """The loaded conversation's last call as its log sent it (the figures of `compaction composition
    FILE`, measured straight from the log: nothing is replayed); for a log that compacted itself, the same
    call had the agent never compacted; for a log that ends on messages the model has not answered yet,
    the next call with them."""
    history = state.history()
    calls = [index for index, message in enumerate(history.messages) if message.get("role") == "assistant"]
    if not calls:
        return
    last = calls[-1]
    sent, _ = sent_composition(history, last)
    rows = [(f"last call ({len(calls):,}), as the log sent it", sent)]
    after = len(history.messages) - 1 - last
    compacted = bool(history.recorded.boundaries or history.recorded.agent_summaries)
    if compacted:
        rows.append(("the same call, never compacted",
                     uncompacted_composition(history, last, uncompacted_tokens(history, last))))
    elif after > 0:
        rows.append((f"the next call, with the {after:,} message{'s' if after > 1 else ''} after it",
                     uncompacted_composition(history, len(history.messages),
                                             uncompacted_tokens(history, len(history.messages)))))
    st.subheader("What fills the context")
    st.plotly_chart(composition_bars(rows), width="stretch", config=CONFIG, key="conversation_composition")
    words = (f"The last model call sends {_recorded_words(sent)}, by kind; tool results are split by the tool that "
             "produced them (`compaction composition FILE` gives the same figures).")
    if compacted:
        words += (" Below it, what the same call would send had the agent never compacted: every message of the "
                  "session before it (estimated).")
    elif after > 0:
        words += " Below it, the call that would answer the last messages loaded (estimated)."
    st.caption(words + " " + KINDS_NOTE)


def replay_section(result) -> None:
    """The kinds of every call, stacked, with the replay's strategy and without compaction."""
    found, without = along(result)
    recorded = [record.measures.recorded["context_tokens"] if record.measures and record.measures.recorded else None
                for record in result.calls]
    title = STRATEGY_TITLES.get(result.strategy, result.strategy)
    st.subheader("What fills the context, call by call")
    st.plotly_chart(composition_area([record.call for record in result.calls], found, without, recorded,
                                     title.lower() if result.strategy == "pipeline" else title),
                    width="stretch", config=CONFIG, key="replay_composition")
    st.caption("Top: what each call sends at these settings, by kind, stacked to its total; bottom: the same calls "
               "had nothing ever been compacted, until the model window refuses one. The orange line, for a log "
               "with usage: what the agent really sent. " + KINDS_NOTE)


def call_bars(result, call: int) -> None:
    """The call picked on Replay: what it sends, beside the same call without compaction."""
    found, without = along(result)
    rows = [(f"call {call_number(call):,}, sent", found[call])]
    if without[call] is not None:
        rows.append((f"call {call_number(call):,}, without compaction", without[call]))
    st.plotly_chart(composition_bars(rows), width="stretch", config=CONFIG, key="replay_call_composition")
    sent, exact = found[call], result.calls[call].exact
    extra = sent.kinds[NOT_IN_LOG]
    words = f"Call {call_number(call):,} sends {sent.tokens:,} tokens ({'recorded in the log' if exact else 'estimated'})"
    if sent.recorded_tokens and not exact:
        words += f"; the log recorded {sent.recorded_tokens:,} for what the agent sent"
    if extra:
        words += f"; {extra:,} of them are not in the log"
    if without[call] is None:
        words += "; without compaction the model window would refuse this call"
    st.caption(words + ".")


def live_section(session, forecast) -> None:
    """A followed session now and right after the agent's next compaction, what it takes hatched."""
    if forecast is None:
        return
    found = live_composition(session, agent_rule(session), forecast)
    if found is None:
        return
    st.markdown("**What fills the context now, and after the agent's next compaction**")
    st.plotly_chart(live_bars(found), width="stretch", config=CONFIG, key="live_composition")
    st.caption(f"What fills the context now ({found.tokens:,} tokens), as far as the follower knows it: the first "
               "call's context (the system prompt and tools, and the first prompt), the summary of the agent's last "
               "compaction, the person's turns and the tool results written since (characters / 4), the agent's "
               "recorded output since, and the rest. Faded, under the bracket: what "
               f"{literal(found.label)}'s next compaction takes: it {literal(found.action)}. The follower keeps "
               "numbers, never the messages, so a rule that keeps the newest share is drawn taking that share of "
               "every kind.")
