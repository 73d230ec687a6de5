"""Issue 29: the words name the log's own agent and its model's provider, never another's: a Codex CLI
rollout is priced in OpenAI's terms (cached input billed lower, no cache writes), a Claude Code log in
Anthropic's (writes by lifetime), and where the agent without compaction stops no provider's error is
quoted."""

from pathlib import Path

from compaction.importers import load_conversation
from compaction.replay import replay
from dashboard.render import comparison, price_words
from dashboard.render.narrative import agent_title

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def test_a_codex_rollout_is_priced_in_openais_words_and_named_as_its_agent():
    conversation = load_conversation(CASES / "codex_compaction.jsonl")
    assert agent_title(conversation) == "Codex CLI"
    sentence = price_words.priced_sentence(replay(conversation, keep_histories=False))
    assert "cached input at its model's lower price, with no charge for writing the cache" in sentence
    assert "5-minute" not in sentence and "1-hour" not in sentence


def test_a_claude_code_log_keeps_anthropics_cache_lifetimes():
    conversation = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    assert agent_title(conversation) == "Claude Code"
    sentence = price_words.priced_sentence(replay(conversation, keep_histories=False))
    assert "cache writes, as the log's" in sentence and "no charge for writing" not in sentence


def test_the_stop_is_told_without_one_providers_error_text():
    conversation = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    headline = comparison.stop_headline(replay(conversation, keep_histories=False))
    assert "the model's API refuses it as too long" in headline and "prompt is too long" not in headline
