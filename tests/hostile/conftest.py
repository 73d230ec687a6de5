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
