"""The script `compaction-lab` gives `streamlit run`; the checkout's app.py is the same two lines."""

from dashboard.ui.navigation import run_app

run_app()
