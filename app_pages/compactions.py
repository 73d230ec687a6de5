"""Compactions page: each compaction the loaded log records, opened. One card per compaction, in order: when
and why, the tokens before and after, the summary laid out beside what it replaced, what it cost, what the
agent had to read again because the compaction lost it, and where the agent's own preset compacted beside it.
The cards are compaction.compactions'; the words dashboard/render/compaction_words.py's."""

import streamlit as st

from dashboard.render import compaction_words as words
from dashboard.render.text import literal
from dashboard.ui import compaction_state, state

st.title("Compactions")
st.caption("Every time the agent squeezed its own conversation, as its log records it: the automatic ones and "
           "the ones the person asked for with /compact. Calls are numbered from 1, as on the Replay page.")

loaded = state.loaded()
with st.spinner("Opening the log's compactions…"):
    cards = compaction_state.cards()
if not cards:
    st.info(f"**{literal(loaded.label)}** records no compaction of its own: the agent never had to squeeze its "
            "conversation. Load a longer session, or see the Replay page for what a strategy would do.",
            icon=":material/info:")
    st.stop()
st.markdown(words.cards_headline(cards))

for card in cards:
    with st.container(border=True):
        st.subheader(words.card_title(card))
        st.table({"what": [label for label, _ in words.facts(card)], "value": [value for _, value in words.facts(card)]},
                 hide_index=True)
        replaced_col, carried_col = st.columns(2)
        with replaced_col:
            st.markdown("**What it replaced** (the call before it, in tokens)")
            rows = words.replaced_rows(card)
            if rows:
                st.table({"kind": [kind for kind, _ in rows], "tokens": [value for _, value in rows]}, hide_index=True)
            else:
                st.caption("No call before it: nothing was replaced.")
        with carried_col:
            st.markdown("**What it carried on**")
            rows = words.carried_rows(card)
            st.table({"what": [label for label, _ in rows], "value": [value for _, value in rows]}, hide_index=True)
            summary = card.carried_on.summary
            if summary is not None:
                st.markdown("The summary, as the agent wrote it:")
                with st.container(height=360, key=f"summary_{card.number}"):
                    st.text(summary)
            if card.carried_on.kept_messages:
                st.markdown("The messages it kept:")
                with st.container(height=200, key=f"kept_{card.number}"):
                    st.text("\n\n".join(card.carried_on.kept_messages))
        st.markdown("**Read again**")
        st.caption(words.reread_sentence(card))
        rows = words.reread_rows(card)
        if rows:
            st.table({"what": [row["what"] for row in rows], "name": [row["name"] for row in rows],
                      "first in": [row["before"] for row in rows], "again in": [row["again"] for row in rows],
                      "tokens": [row["tokens"] for row in rows], "cost": [row["cost"] for row in rows]},
                     hide_index=True)
        st.caption(card.cost.basis)
        preset = words.preset_sentence(card)
        if preset:
            st.caption(literal(preset))
