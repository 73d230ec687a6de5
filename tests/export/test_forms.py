"""Every export form, for every strategy it carries, produced and checked as its agent would read it: JSON
against the anthropic SDK's request types and through the SDK to the local Messages API, TOML with
tomllib against Codex's and OpenHands' field names, environment lines parsed, Python parsed for the real
LangChain classes and keywords, the compacting client's construction run. A form that does not fit a
strategy is refused by name."""

import ast
import json
import re
import tomllib

import pytest
import yaml
from anthropic.types.beta import BetaContextManagementConfigParam

from compaction.errors import SettingsError
from compaction.export import export, forms, forms_for, lookup_form
from compaction.export.context_management import BETAS
from compaction.model.settings import DEFAULTS
from compaction.strategies import REGISTRY
from tests.client.scripted import sdk
from tests.export.typed_dicts import problems

# The keywords of the real constructors (langchain_v1: agents/middleware/summarization.py, context_editing.py)
LANGCHAIN = {"SummarizationMiddleware": {"model", "trigger", "keep", "token_counter", "summary_prompt",
                                         "trim_tokens_to_summarize"},
             "ContextEditingMiddleware": {"edits", "token_count_method"},
             "ClearToolUsesEdit": {"trigger", "clear_at_least", "keep", "clear_tool_inputs", "exclude_tools",
                                   "placeholder", "model"}}
# OpenHands' condenser configs (openhands/core/config/condenser_config.py): fields, and their lower bounds
OPENHANDS = {"observation_masking": {"attention_window": 1}, "browser_output_masking": {"attention_window": 1},
             "recent": {"keep_first": 0, "max_events": 1}, "amortized": {"max_size": 2, "keep_first": 0},
             "llm": {"llm_config": None, "keep_first": 0, "max_size": 2, "max_event_length": None},
             "pipeline": {"condensers": None}}
BY_LANGUAGE = {"json": json.loads, "toml": tomllib.loads, "yaml": yaml.safe_load}  # a form of no entry above
ENV_LINE = re.compile(r"^export ([A-Z][A-Z0-9_]*)=([0-9.]+)$")

CASES = [(name, form.name) for name in REGISTRY for form in forms() if form.fits(name)]


def test_every_strategy_but_the_logs_own_has_a_form_and_every_form_a_strategy():
    assert {name for name, _ in CASES} == set(REGISTRY) - {"as-recorded"}
    assert {form for _, form in CASES} == {form.name for form in forms()}
    assert [f.name for f in forms_for("pipeline")] == ["python", "client"]


@pytest.mark.parametrize("strategy, form", CASES, ids=[f"{s}-{f}" for s, f in CASES])
def test_each_export_is_what_its_agent_reads(strategy, form):
    exported = export(strategy, form=form)
    assert exported.text.endswith("\n") and exported.filename and exported.strategy == strategy
    check = {"python": ast.parse, "client": ast.parse, "langchain": ast.parse, "codex": tomllib.loads,
             "context_management": json.loads, "gemini-cli": json.loads, "claude-code": env_lines, "aider": yaml.safe_load, "opencode": json.loads, "crush": json.loads, "goose": yaml.safe_load,
             "copilot-cli": env_lines, "pi": json.loads,
             "openhands": tomllib.loads if exported.language == "toml" else json.loads}.get(form, BY_LANGUAGE.get(exported.language))
    check(exported.text)


def env_lines(text: str) -> dict[str, str]:
    """Comment lines and `export NAME=number` lines only, as a shell reads them."""
    found = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        matched = ENV_LINE.match(line)
        assert matched, f"not an environment line: {line!r}"
        found[matched.group(1)] = matched.group(2)
    return found


@pytest.mark.parametrize("strategy, params", [
    ("anthropic-clear-tool-uses", {}),
    ("anthropic-clear-tool-uses", {"trigger": 30_000, "keep": 5, "clear_at_least": 2_000, "exclude_tools": ("Read",),
                                   "clear_tool_inputs": True}),
    ("anthropic-clear-thinking", {}), ("anthropic-clear-thinking", {"keep_all": True}),
    ("anthropic-compact", {}), ("anthropic-compact", {"trigger": 80_000, "instructions": "Keep the file names."}),
])
def test_context_management_is_of_the_sdks_request_types_and_goes_through_the_sdk(fake_anthropic, strategy, params):
    fragment = json.loads(export(strategy, params, form="context_management").text)
    assert list(fragment) == ["context_management"]
    assert problems(fragment["context_management"], BetaContextManagementConfigParam, "context_management") == []
    [edit] = fragment["context_management"]["edits"]
    if "trigger" in params:
        assert edit["trigger"] == {"type": "input_tokens", "value": params["trigger"]}
    sdk(fake_anthropic).beta.messages.create(model="claude-fake", max_tokens=10, betas=[BETAS[strategy]],
                                             messages=[{"role": "user", "content": "hi"}], **fragment)
    [request] = fake_anthropic.requests
    assert request.body["context_management"] == fragment["context_management"]
    assert BETAS[strategy] in request.headers["anthropic-beta"]


def test_the_type_checker_refuses_what_the_sdk_types_do_not_describe():
    wrong = {"edits": [{"type": "clear_tool_uses_20250919", "trigger": {"type": "tokens", "value": 5}, "kept": 3}]}
    found = problems(wrong, BetaContextManagementConfigParam)
    assert any("unknown field 'kept'" in p for p in found) or any("'tokens'" in p for p in found)


def test_claude_code_lines_move_the_threshold_and_say_what_cannot_be_set():
    assert env_lines(export("claude-code", form="claude-code").text) == {}
    earlier = export("claude-code", {"buffer_tokens": 40_000, "microcompact": True}, form="claude-code")
    values = env_lines(earlier.text)
    assert set(values) == {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"}
    assert int(180_000 * float(values["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"]) / 100) in range(139_990, 140_010)
    assert any("Cannot be set in Claude Code: microcompact" in note for note in earlier.notes)
    later = export("claude-code", {"buffer_tokens": 5_000}, form="claude-code")
    assert env_lines(later.text) == {}
    assert any("Cannot be set: compacting later than Claude Code's default" in note for note in later.notes)
    wide = env_lines(export("claude-code", {"window_tokens": 1_000_000}, form="claude-code").text)
    assert wide == {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "1000000"}


def test_claude_code_takes_the_logs_version_for_auto():
    old = export("claude-code", {"buffer_tokens": 30_000}, form="claude-code", agent_version="2.0.76")
    new = export("claude-code", {"buffer_tokens": 30_000}, form="claude-code", agent_version="2.1.39")
    assert "Claude Code 2.0.76" in old.text and "32,000-token output reserve" in " ".join(old.notes)
    assert "20,000-token output reserve" in " ".join(new.notes)
    assert env_lines(old.text) != env_lines(new.text)  # another reserve, another percentage


def test_codex_keys_parse_and_carry_the_limit_the_replay_used():
    config = tomllib.loads(export("codex", {"auto_compact_token_limit": 200_000, "window_tokens": 300_000},
                                  form="codex").text)
    assert config == {"model_context_window": 300_000, "model_auto_compact_token_limit": 200_000}
    capped = tomllib.loads(export("codex", {"auto_compact_token_limit": 290_000, "window_tokens": 300_000},
                                  form="codex-toml").text)
    assert capped["model_auto_compact_token_limit"] == 270_000  # 90 % of the window, as Codex caps it
    assert any("Cannot be set in Codex" in n for n in export("codex", {"user_message_budget_tokens": 5_000},
                                                              form="codex").notes)
    default = export("codex", {}, form="codex")  # the window the log named: Codex's own model info
    assert tomllib.loads(default.text) == {"model_auto_compact_token_limit": 244_800}
    assert any("left to Codex's model info (272,000" in note for note in default.notes)


@pytest.mark.parametrize("strategy, params", [
    ("langchain-summarization", {}),
    ("langchain-summarization", {"trigger_tokens": 0, "trigger_messages": 60, "trigger_fraction": 0.8,
                                 "trim_tokens_to_summarize": 0}),
    ("langchain-clear-tool-uses", {"trigger": 50_000, "exclude_tools": ("web_search",), "placeholder": "[gone]"}),
])
def test_langchain_source_constructs_the_real_middleware(strategy, params):
    exported = export(strategy, params, form="langchain")
    tree = ast.parse(exported.text)
    calls = {node.func.id: node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name)}
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "langchain.agents.middleware" for alias in node.names}
    assert set(calls) <= set(LANGCHAIN) and set(calls) <= imported and calls
    for name, call in calls.items():
        assert {kw.arg for kw in call.keywords} <= LANGCHAIN[name]
    values = {kw.arg: ast.literal_eval(kw.value) for call in calls.values() for kw in call.keywords
              if kw.arg not in ("edits",)}
    if strategy == "langchain-summarization":
        expected = [(kind, value) for kind, value in (("tokens", params.get("trigger_tokens", 4_000)),
                    ("messages", params.get("trigger_messages", 0)), ("fraction", params.get("trigger_fraction", 0)))
                    if value]
        assert values["trigger"] == expected and values["keep"] == ("messages", 20)
        assert values["trim_tokens_to_summarize"] == (params.get("trim_tokens_to_summarize", 4_000) or None)
    else:
        assert values["trigger"] == 50_000 and values["exclude_tools"] == ("web_search",)
        assert values["placeholder"] == "[gone]" and values["keep"] == 3


@pytest.mark.parametrize("strategy", ["openhands-masking", "openhands-recent", "openhands-amortized", "openhands-llm"])
def test_openhands_condenser_tables_have_openhands_fields(strategy):
    config = tomllib.loads(export(strategy, form="openhands").text)
    condenser = config["condenser"]
    fields = OPENHANDS[condenser["type"]]
    assert set(condenser) - {"type"} <= set(fields)
    for name, minimum in fields.items():
        if minimum is not None and name in condenser:
            assert condenser[name] >= minimum
    if condenser["type"] == "llm":
        assert config["llm"][condenser["llm_config"]]["model"]


def test_the_openhands_pipeline_is_a_pipeline_config_in_json():
    exported = export("openhands-pipeline", {"max_size": 80, "keep_first": 2}, form="openhands")
    pipeline = json.loads(exported.text)
    assert pipeline["type"] == "pipeline"
    assert [c["type"] for c in pipeline["condensers"]] == ["browser_output_masking", "llm"]
    for condenser in pipeline["condensers"]:
        assert set(condenser) - {"type"} <= set(OPENHANDS[condenser["type"]])
    assert pipeline["condensers"][1]["max_size"] == 80
    assert any("cannot carry a pipeline" in note for note in exported.notes)


def test_gemini_settings_parse():
    assert json.loads(export("gemini-cli", {"threshold_fraction": 0.3}, form="gemini").text) == {
        "model": {"compressionThreshold": 0.3}}


@pytest.mark.parametrize("strategy, params, settings", [
    ("pipeline", {"context_limit": 20_000}, DEFAULTS.replace(keep_recent=5, reactive_keep_last=7)),
    ("anthropic-clear-tool-uses", {"trigger": 40_000, "exclude_tools": ("Read",)}, DEFAULTS),
    ("masking", {"window": 6}, DEFAULTS),
    ("hybrid", {}, DEFAULTS),
])
def test_the_client_construction_runs_and_builds_the_same_strategy(fake_anthropic, monkeypatch, tmp_path, strategy,
                                                                   params, settings):
    from compaction.client import CompactingClient
    from compaction.export.base import effective_settings
    from compaction.strategies import build

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-export")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    monkeypatch.chdir(tmp_path)
    built = build(strategy, params)
    namespace: dict = {}
    exec(compile(export(built, settings=settings, form="client").text, "compacting_client.py", "exec"), namespace)
    client = namespace["client"]
    assert isinstance(client, CompactingClient) and client.strategy.spec.name == strategy
    wanted = effective_settings(built, settings)
    if built.spec.from_settings:
        for name in built.spec.settings_read or [p.name for p in built.spec.params]:
            assert getattr(client.settings, name) == getattr(wanted, name)
    else:
        assert client.strategy.params == built.params
    assert client.settings.reactive_keep_last == settings.reactive_keep_last
    client.messages.create(model="claude-fake", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
    assert (tmp_path / "compaction-trace.jsonl").is_file()


@pytest.mark.parametrize("strategy, form, words", [
    ("pipeline", "codex", "the codex form does not fit the strategy pipeline: it carries codex; for pipeline choose "
                          "python, client"),
    ("claude-code", "python", "the python form does not fit the strategy claude-code"),
    ("as-recorded", "client", "what the log's agent did"),
    ("pipeline", "yaml", "unknown export form 'yaml'; choose one of python, context_management"),
])
def test_a_form_that_does_not_fit_is_refused_by_name(strategy, form, words):
    with pytest.raises(SettingsError, match=re.escape(words)):
        export(strategy, form=form)


def test_form_names_are_forgiving_about_case_dashes_and_spaces():
    assert lookup_form("Context-Management").name == lookup_form("context_management").name == "context_management"
    assert lookup_form("claude_code").name == "claude-code"
    assert lookup_form("codex toml").name == lookup_form("toml").name == "codex"


KEEP = DEFAULTS.replace(keep_tools=("Read", "run_tests"), keep_inputs=("CLAUDE.md",))


def test_keep_verbatim_goes_into_the_apis_exclude_tools_through_the_sdk(fake_anthropic):
    exported = export("anthropic-clear-tool-uses", {"exclude_tools": ("web_search", "Read")}, settings=KEEP,
                      form="context_management")
    fragment = json.loads(exported.text)
    assert problems(fragment["context_management"], BetaContextManagementConfigParam, "context_management") == []
    [edit] = fragment["context_management"]["edits"]
    assert edit["exclude_tools"] == ["web_search", "Read", "run_tests"]  # its own first, each once
    sdk(fake_anthropic).beta.messages.create(model="claude-fake", max_tokens=10, betas=[BETAS["anthropic-clear-tool-uses"]],
                                             messages=[{"role": "user", "content": "hi"}], **fragment)
    assert fake_anthropic.requests[0].body["context_management"]["edits"][0]["exclude_tools"] == edit["exclude_tools"]
    assert any("Read, run_tests are in exclude_tools" in note for note in exported.notes)
    assert any("by input (CLAUDE.md) has no field" in note for note in exported.notes)
    compact = export("anthropic-compact", settings=KEEP, form="context_management")
    assert "exclude_tools" not in compact.text and any("has no field in this form" in n for n in compact.notes)


def test_keep_verbatim_goes_into_langchains_exclude_tools():
    exported = export("langchain-clear-tool-uses", {"exclude_tools": ("web_search",)}, settings=KEEP, form="langchain")
    [edit] = [node for node in ast.walk(ast.parse(exported.text)) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "ClearToolUsesEdit"]
    values = {kw.arg: ast.literal_eval(kw.value) for kw in edit.keywords}
    assert values["exclude_tools"] == ("web_search", "Read", "run_tests")
    summary = export("langchain-summarization", settings=KEEP, form="langchain")
    assert any("Keep verbatim (Read, run_tests) has no field" in note for note in summary.notes)
    assert not any("Keep verbatim" in note for note in export("langchain-clear-tool-uses", form="langchain").notes)
