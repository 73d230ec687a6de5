"""Compaction Lab's dashboard: `render/` builds figures and tables without Streamlit (the HTML report uses
them too), `ui/` is the Streamlit app (state, loading, the sidebar, navigation), `launch/` starts it;
the pages themselves are thin files in app_pages/."""
