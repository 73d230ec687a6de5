"""The script `compaction-lab` gives `streamlit run`; the checkout's app.py is the same lines."""

# A sweep's worker process runs this file as "__mp_main__" (see the checkout's app.py): it draws nothing.
if __name__ == "__main__":
    from dashboard.ui.navigation import run_app

    run_app()
