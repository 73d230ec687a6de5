"""The Replay page's probe questions: Claude asks four questions about the conversation up to a call,
answers them from what that call sent, and grades the answers (compaction.measures.probes). Only on
the button, only with a key (the sidebar's, or ANTHROPIC_API_KEY)."""

import pandas as pd
import streamlit as st

from compaction.measures import KIND_MEANING, MAX_SCORE, ProbeError, Prober, probe_score
from compaction.model import History
from compaction.replay import CallRecord
from dashboard.render.units import percent
from dashboard.ui import api_key, state

_PROBES = "_probe_results"


def probe_section(prepared: History, sent: History, record: CallRecord) -> None:
    with st.expander("Probe questions with Claude: what can this call still answer?"):
        st.caption("Claude writes four questions about the conversation up to this call, one of each kind ("
                   + "; ".join(f"{kind}: {meaning}" for kind, meaning in KIND_MEANING.items())
                   + "), answers them from what this call sent, and grades each answer against the full "
                   "conversation, 0 to 5. Three requests to the Anthropic API.")
        has_key = bool(api_key.typed_key()) or api_key.environment_key()
        if not has_key:
            st.info("Needs an Anthropic API key: choose Claude as the L4 summariser in the sidebar and enter one, "
                    "or set ANTHROPIC_API_KEY.")
        key = (state.loaded().key, tuple(state.settings().as_dict().items()), record.call)
        if st.button("Ask Claude the probe questions", disabled=not has_key, key="run_probes",
                     icon=":material/quiz:"):
            with st.spinner("Asking Claude…"):
                try:
                    probes = Prober(api_key=api_key.typed_key()).run(prepared.messages[:record.index], sent.messages)
                except ProbeError as error:
                    st.error(str(error))
                    return
            st.session_state.setdefault(_PROBES, {})[key] = probes
        probes = st.session_state.get(_PROBES, {}).get(key)
        if probes:
            st.metric("Answered from the compacted context", percent(probe_score(probes)),
                      help=f"Mean grade as a share of the best ({MAX_SCORE} for each question).")
            st.dataframe(pd.DataFrame([{"kind": p.kind, "question": p.question, "answer from the full conversation":
                                        p.reference, "answer from what was sent": p.answer, "grade": p.score}
                                       for p in probes]), hide_index=True, width="stretch")
