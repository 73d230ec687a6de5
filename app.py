"""Compaction Lab: see, step by step, how an agent's four-layer context compaction shrinks a conversation.

Entrypoint: page config, navigation over the pages in pages/, and the shared sidebar controls
(dashboard/shell.py), drawn here so that they hold across pages. Run with `streamlit run app.py` (or `make run`).
"""

import streamlit as st

from dashboard import shell

st.set_page_config(page_title="Compaction Lab", page_icon=":material/compress:", layout="wide")

# File names differ from the URL paths on purpose: until app.py first calls st.navigation, a fresh
# server maps URL paths to files in pages/ itself and would run a linked page without app.py.
PAGES = {
    "Analyse": [
        st.Page("pages/conversation_page.py", title="Conversation", icon=":material/forum:",
                url_path="conversation", default=True),
        st.Page("pages/pipeline_page.py", title="Pipeline", icon=":material/waterfall_chart:", url_path="pipeline"),
        st.Page("pages/what_changed_page.py", title="What changed", icon=":material/difference:",
                url_path="what_changed"),
        st.Page("pages/persisted_outputs_page.py", title="Persisted outputs", icon=":material/save:",
                url_path="persisted_outputs"),
    ],
    "Over time": [
        st.Page("pages/replay_page.py", title="Replay", icon=":material/timeline:", url_path="replay"),
        st.Page("pages/tune_page.py", title="Tune", icon=":material/tune:", url_path="tune"),
        st.Page("pages/compare_page.py", title="Compare", icon=":material/compare:", url_path="compare"),
    ],
    "Demo": [
        st.Page("pages/tour_page.py", title="Guided tour", icon=":material/tour:", url_path="tour"),
    ],
}

navigation = st.navigation(PAGES)
with shell.drawn_by_entrypoint():
    navigation.run()
