"""The Streamlit app: what a browser session holds, loading, the shared sidebar and the navigation."""
