import pytest

from compaction import DEFAULTS, Settings, SettingsError


def test_tutorial_defaults():
    assert (DEFAULTS.context_limit, DEFAULTS.keep_recent, DEFAULTS.persist_threshold, DEFAULTS.max_messages,
            DEFAULTS.max_bytes, DEFAULTS.preview_chars, DEFAULTS.summary_input_cap) == (
        50_000, 3, 30_000, 50, 200_000, 2_000, 80_000)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("context_limit", -1, "context_limit must be between"),
    ("keep_recent", -3, "keep_recent must be between"),
    ("persist_threshold", 0, "persist_threshold must be between"),
    ("max_messages", 10**12, "max_messages must be between"),
    ("max_messages", 3, "max_messages must be between"),
    ("keep_recent", 2.5, "keep_recent must be a whole number"),
    ("context_limit", "50000", "context_limit must be a whole number"),
    ("keep_recent", True, "keep_recent must be a whole number"),
])
def test_bad_values_are_named(field, value, words):
    with pytest.raises(SettingsError, match=words):
        Settings(**{field: value})


def test_replace_rejects_unknown_names():
    with pytest.raises(SettingsError, match="unknown setting"):
        DEFAULTS.replace(context_limt=5)
    assert DEFAULTS.replace(keep_recent=7).keep_recent == 7
