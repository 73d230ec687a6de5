"""Compaction Lab's dashboard helpers: state, loading, tables and charts (the pages stay thin)."""
