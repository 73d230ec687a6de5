"""The `langchain` form: the construction of LangChain's agent middleware at the tuned parameters, as
Python source for `create_agent(..., middleware=[...])` (langchain v1): SummarizationMiddleware, or
ContextEditingMiddleware with a ClearToolUsesEdit. The names and keyword arguments are those of
langchain's `langchain/agents/middleware/summarization.py` and `context_editing.py`."""

from compaction.export.base import Exported, excluded_tools, keep_notes
from compaction.model.settings import Settings
from compaction.strategies import Built

STRATEGIES = ("langchain-summarization", "langchain-clear-tool-uses")
SUMMARY_MODEL = "anthropic:claude-sonnet-4-5"  # a placeholder: the model that writes the summaries


def _summarization(params: dict, settings: Settings) -> tuple[list[str], list[str]]:
    triggers = [f'("tokens", {params["trigger_tokens"]})'] if params["trigger_tokens"] else []
    triggers += [f'("messages", {params["trigger_messages"]})'] if params["trigger_messages"] else []
    triggers += [f'("fraction", {params["trigger_fraction"]!r})'] if params["trigger_fraction"] else []
    trim = params["trim_tokens_to_summarize"] or None  # 0 in the lab: summarise it all; LangChain says None
    lines = ["from langchain.agents.middleware import SummarizationMiddleware", "", "middleware = [",
             "    SummarizationMiddleware(",
             f"        model={SUMMARY_MODEL!r},  # the model that writes the summaries: choose yours",
             f"        trigger=[{', '.join(triggers)}],  # any one of them",
             f'        keep=("messages", {params["keep_messages"]}),',
             f"        trim_tokens_to_summarize={trim!r},", "    ),", "]"]
    notes = []
    if params["trigger_fraction"]:
        notes.append(f"The fraction trigger is of the summary model's own input limit (its profile's "
                     f"max_input_tokens); the {params['window_tokens']:,} tokens of the lab's window cannot be set here.")
    return lines, notes


def _clear_tool_uses(params: dict, settings: Settings) -> tuple[list[str], list[str]]:
    lines = ["from langchain.agents.middleware import ClearToolUsesEdit, ContextEditingMiddleware", "",
             "middleware = [", "    ContextEditingMiddleware(", "        edits=[", "            ClearToolUsesEdit(",
             f"                trigger={params['trigger']},", f"                keep={params['keep']},",
             f"                clear_at_least={params['clear_at_least']},",
             f"                clear_tool_inputs={params['clear_tool_inputs']!r},",
             f"                exclude_tools={tuple(excluded_tools(params, settings))!r},",
             f"                placeholder={params['placeholder']!r},", "            ),", "        ],", "    ),", "]"]
    return lines, []


def render(built: Built, settings: Settings) -> Exported:
    summarise = built.spec.name == "langchain-summarization"
    body, notes = (_summarization if summarise else _clear_tool_uses)(built.params, settings)
    notes += keep_notes(settings, carried=not summarise)
    text = "\n".join([f"# LangChain agent middleware as tuned in Compaction Lab (strategy {built.spec.name})",
                      *body, "", "# agent = create_agent(model=..., tools=[...], middleware=middleware)"]) + "\n"
    notes = ["Pass `middleware` to `langchain.agents.create_agent` (langchain 1.0 or newer).", *notes,
             "LangChain counts tokens with its own approximate counter; the lab estimated them from characters."]
    return Exported("langchain", built.spec.name, text, "langchain_middleware.py", "python", tuple(notes))
