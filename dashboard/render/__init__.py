"""Figures and tables built from engine results, as plain functions with no Streamlit: the pages and the
HTML report share them, and tests call them directly."""
