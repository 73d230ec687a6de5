"""Compaction Lab: see, step by step, how an agent's four-layer context compaction shrinks a conversation.

The entrypoint: `streamlit run app.py` (or `make run`). The pages are listed in dashboard/navigation.py;
the shared sidebar (settings, summariser) is drawn by dashboard/shell.py before each page.
"""

from dashboard.navigation import run_app

run_app()
