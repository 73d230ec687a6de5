"""Compaction Lab: see, step by step, how an agent's four-layer context compaction shrinks a conversation.

The entrypoint: `make run`, `compaction-lab` or `streamlit run app.py`. The pages are listed in
dashboard/ui/navigation.py, which draws the shared sidebar (settings, summariser) before each page.
"""

# Streamlit runs this file as "__main__". A sweep's worker process, spawned while it runs, starts by running
# the same file as "__mp_main__": it must then import and draw nothing.
if __name__ == "__main__":
    from dashboard.ui.navigation import run_app

    run_app()
