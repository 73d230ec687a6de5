"""The dashboard's pages, one thin file each, run by st.navigation (dashboard/ui/navigation.py)."""
