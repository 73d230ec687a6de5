"""L4 with the Claude summariser over real HTTP: its summary lands, its failures lose nothing."""

from compaction import OutputStore, Settings, run_pipeline
from compaction.summarizers.claude import ClaudeSummarizer

from .builders import turns

TIGHT = Settings(context_limit=1_000)


def claude(server):
    return ClaudeSummarizer(api_key="sk-ant-test-key", base_url=server.url, model="claude-fake", max_retries=0)


def test_claude_summary_replaces_the_history(fake_anthropic, tmp_path):
    fake_anthropic.reply("Goal: build it. Files: src/t0.py.")
    messages = turns(20, output_chars=300)
    result = run_pipeline(messages, TIGHT, OutputStore(tmp_path), claude(fake_anthropic))
    assert result.summary.succeeded and result.summary.summarizer == "claude:claude-fake"
    assert result.final.messages == [{"role": "user", "content": "[Compacted]\n\nGoal: build it. Files: src/t0.py."}]
    [body] = fake_anthropic.bodies()
    prompt = body["messages"][0]["content"]
    assert "Be compact but concrete." in prompt and '"tool_use_id": "t19"' in prompt
    assert body["max_tokens"] == 2000


def test_claude_failure_keeps_the_history_after_l2(fake_anthropic, tmp_path):
    fake_anthropic.error(529, "Overloaded")
    messages = turns(20, output_chars=300)
    result = run_pipeline(messages, TIGHT, OutputStore(tmp_path), claude(fake_anthropic))
    assert result.summary.triggered and not result.summary.succeeded
    assert result.summary.error and "sk-ant-test-key" not in result.summary.error
    assert result.final.messages == result.stage("L2").messages
    assert result.summary.transcript_path.exists() and result.valid
