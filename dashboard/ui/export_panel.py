"""The "Use these settings" panel of the Tune, Compare and Replay pages: the strategy and settings on show,
in the form each agent takes them, as a block to copy and a file to download, with what the agent cannot
set said under it. Each page adds it with one call: `show(strategies, key)`."""

from collections.abc import Mapping

import streamlit as st

from compaction.errors import SettingsError
from compaction.strategies import REGISTRY
from dashboard.render.export_blocks import export_blocks
from dashboard.ui import state


def show(strategies: Mapping[str, Mapping], key: str, expanded: bool = False) -> None:
    """`strategies`: name -> parameters of each strategy on show (the sidebar's settings apply to the
    tutorial's); with several, the person picks one. `key` keeps the page's widgets apart; `expanded`
    opens the panel (Tune's agent knobs: a click on a point is the export)."""
    names = [name for name in strategies if name != "as-recorded"]
    with st.expander("Use these settings", icon=":material/ios_share:", expanded=expanded):
        if not names:
            st.info("What the log's agent did cannot be exported: pick a strategy to take to your agent.")
            return
        st.caption("Take what you see here to your agent: each tab is the form one agent reads, to copy (the button "
                   "at the block's corner) or download. The sidebar's settings are the tutorial's; a strategy's own "
                   "parameters are the ones on show on this page.")
        name = names[0] if len(names) == 1 else st.selectbox(
            "Strategy to export", names, format_func=lambda n: REGISTRY[n].label, key=f"{key}_export_strategy")
        version = state.loaded().conversation.metadata.get("agent_version")
        try:
            blocks = export_blocks(name, dict(strategies[name]), state.settings(), version)
        except SettingsError as error:
            st.error(f"{REGISTRY[name].label} cannot be exported with these parameters: {error}")
            return
        for tab, block in zip(st.tabs([block.title for block in blocks]), blocks, strict=True):
            with tab:
                exported = block.exported
                st.caption(f"{block.described[0].upper()}{block.described[1:]}.")
                st.code(exported.text, language=exported.language, height=320 if exported.form == "python" else
                        "content")
                st.download_button(f"Download {exported.filename}", exported.text, file_name=exported.filename,
                                   mime=exported.mime, icon=":material/download:",
                                   key=f"{key}_export_{name}_{block.form}")
                for note in exported.notes:
                    st.caption(note)
