"""Compaction Lab: see, step by step, how an agent's four-layer context compaction shrinks a conversation.

The entrypoint: `make run`, `compaction-lab` or `streamlit run app.py`. The pages are listed in
dashboard/ui/navigation.py, which draws the shared sidebar (settings, summariser) before each page.
"""

from dashboard.ui.navigation import run_app

run_app()
