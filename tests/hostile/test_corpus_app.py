"""The bad-input corpus through the dashboard's uploader (AppTest): a bad file shows an error naming
the problem and the previous conversation stays loaded; a good one loads; never an exception."""

import pytest

from compaction.importers.limits import MAX_FILE_BYTES

from .apptest import UPLOAD_KEY, loaded_header, start_app, upload
from .big_corpus import BIG_CASES
from .corpus import EXPECTED

# The 1 GB sparse file is the uploader's own limit (below); the others are uploaded as they are.
BIG_UPLOADS = sorted(name for name in BIG_CASES if name != "claimed_1gb.json")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("COMPACTION_STORE_ROOT", str(tmp_path_factory.mktemp("sessions")))
    mp.delenv("ANTHROPIC_API_KEY", raising=False)
    at = start_app()
    yield at
    mp.undo()


@pytest.mark.parametrize("name", sorted(EXPECTED) + BIG_UPLOADS)
def test_upload(app, name, corpus_file):
    path, expectation = corpus_file(name)
    before = loaded_header(app)
    upload(app, name, path.read_bytes())
    assert not app.exception, [e.message for e in app.exception]
    errors = [error.value for error in app.error]
    if expectation["outcome"] == "error":
        assert len(errors) == 1, errors
        assert name in errors[0] and "previous conversation stays loaded" in errors[0]
        for word in expectation["words"]:
            assert word in errors[0]
        assert "Traceback" not in errors[0]
        assert loaded_header(app) == before
    else:
        assert errors == []
        assert loaded_header(app) == f"Loaded: {name}"


def test_the_uploader_refuses_files_above_the_size_bound(app):
    # Streamlit's upload endpoint refuses a file above max_upload_size before the app sees it; the
    # loader's own check (MAX_FILE_BYTES) covers bytes that arrive another way (tests/hostile/test_corpus_*).
    assert app.file_uploader(key=UPLOAD_KEY).proto.max_upload_size_mb * 1024 * 1024 == MAX_FILE_BYTES
