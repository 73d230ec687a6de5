"""The Claude summariser: used only on the button, with a key from the environment or typed for the session."""

from .conftest import metrics, open_page

CLAUDE_SUMMARY = "Goal: finish hello.py. Files: src/module*.py read; data/dump.json dumped."


def choose_claude_with_low_limit(at):
    at.radio(key="SUMMARIZER").set_value("claude").run()
    at.number_input(key="CONTEXT_LIMIT").set_value(5_000).run()
    return at


def test_claude_is_called_only_on_the_button(app, fake_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-environment")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    fake_anthropic.reply(CLAUDE_SUMMARY)
    at = choose_claude_with_low_limit(open_page(app, "what_changed"))
    assert not fake_anthropic.bodies()  # choosing Claude and moving sliders sends nothing
    assert any("Using the key in the ANTHROPIC_API_KEY" in caption.value for caption in at.caption)
    at.button(key="summarise_with_claude").click().run()
    assert not at.exception
    assert len(fake_anthropic.bodies()) == 1
    assert at.code[-1].value == CLAUDE_SUMMARY
    assert any("**Summariser:** claude:" in element.value for element in at.markdown)


def test_typed_key_is_used_and_never_shown_again(app, fake_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    fake_anthropic.reply(CLAUDE_SUMMARY)
    at = choose_claude_with_low_limit(app)
    assert at.button(key="summarise_with_claude").disabled
    at.text_input(key="claude_key_field").input("sk-typed-secret").run()
    assert "sk-typed-secret" not in str(at.session_state["claude_key_field"])
    assert not [field for field in at.text_input if field.key == "claude_key_field"]  # the field is gone
    at.button(key="summarise_with_claude").click().run()
    assert fake_anthropic.requests[-1].api_key == "sk-typed-secret"
    rendered = [str(element.value) for kind in ("markdown", "caption", "code", "text_input", "success")
                for element in at.get(kind) if hasattr(element, "value")]
    assert not any("sk-typed-secret" in text for text in rendered)


def test_claude_failure_is_shown_plainly(app, fake_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-environment")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    fake_anthropic.error(401, "invalid x-api-key")
    at = choose_claude_with_low_limit(app)
    at.button(key="summarise_with_claude").click().run()
    assert not at.exception
    assert at.error and "Claude summary failed" in at.error[0].value
    assert "sk-test-environment" not in at.error[0].value


def test_the_pipeline_headline_follows_claudes_summary_once_written(app, fake_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-environment")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    fake_anthropic.reply("Nothing to report.")  # names none of the files the offline summary carries
    at = choose_claude_with_low_limit(open_page(app, "pipeline"))
    offline = metrics(at)["Artifacts, one pass"]  # no Claude run yet: the offline one is shown
    at = open_page(at, "what_changed")
    at.button(key="summarise_with_claude").click().run()
    at = open_page(at, "pipeline")
    assert not at.exception
    claude = metrics(at)["Artifacts, one pass"]
    assert int(claude.rstrip(" %")) < int(offline.rstrip(" %")), (offline, claude)
