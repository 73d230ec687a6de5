"""Fixtures for the hostile-input tests: the big generated corpus, written once per test process."""

from pathlib import Path

import pytest

from .big_corpus import write_big_corpus
from .corpus import CORPUS, EXPECTED


@pytest.fixture(scope="session")
def big_folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("big-corpus")


@pytest.fixture
def corpus_file(big_folder):
    """corpus_file(name) -> (path, expectation), writing a big case on first use."""
    def get(name: str) -> tuple[Path, dict]:
        if name in EXPECTED:
            return CORPUS / name, EXPECTED[name]
        expectation = write_big_corpus(big_folder, [name])[name]
        return big_folder / name, expectation
    return get


@pytest.fixture
def store_root(monkeypatch, tmp_path) -> Path:
    """The dashboard's store root (COMPACTION_STORE_ROOT) for this test; no Anthropic settings."""
    root = tmp_path / "sessions"
    monkeypatch.setenv("COMPACTION_STORE_ROOT", str(root))
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return root
