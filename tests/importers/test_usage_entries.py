"""The usage dict of one model call (importers/usage.py), worked out by hand from each way logs write it."""

from compaction.importers.usage import from_anthropic, from_cached_input


def test_anthropic_usage_keeps_the_four_counts_and_adds_the_model_and_the_lifetime_split():
    usage = {"input_tokens": 3, "cache_creation_input_tokens": 5000, "cache_read_input_tokens": 20000,
             "output_tokens": 90, "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 5000},
             "service_tier": "standard"}
    assert from_anthropic(usage, "claude-opus-4-6") == {
        "input_tokens": 3, "cache_creation_input_tokens": 5000, "cache_read_input_tokens": 20000, "output_tokens": 90,
        "cache_write_5m_tokens": 0, "cache_write_1h_tokens": 5000, "model": "claude-opus-4-6"}


def test_a_synthetic_response_or_an_all_zero_usage_is_no_model_call():
    assert from_anthropic({"input_tokens": 0, "output_tokens": 0}, "<synthetic>") is None
    assert from_anthropic({"input_tokens": 0, "output_tokens": 0}, "claude-opus-4-6") is None
    assert from_anthropic({"input_tokens": 10, "output_tokens": 2}, "<synthetic>") is None
    assert from_anthropic("not usage") is None


def test_without_a_model_the_dict_has_the_four_counts_only():
    assert from_anthropic({"input_tokens": 7, "output_tokens": 2}) == {
        "input_tokens": 7, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 2}


def test_an_input_that_includes_the_cached_tokens_is_split_into_plain_and_read():
    # Codex: input_tokens 194,558 of which cached 194,432 -> 126 plain
    assert from_cached_input(194_558, 194_432, 13, "gpt-5.1-codex-max") == {
        "input_tokens": 126, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 194_432,
        "output_tokens": 13, "model": "gpt-5.1-codex-max"}
    assert from_cached_input(0, 0, 0) is None
    assert from_cached_input(100, 150, 1)["input_tokens"] == 0  # a cached share over the input: all read
