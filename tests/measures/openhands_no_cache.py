"""An OpenHands evaluation instance (output.jsonl, one instance a line) whose agent ran without prompt
caching (`llm_config.caching_prompt: false`): every response's usage says cache_read_tokens 0 and
cache_write_tokens 0. Written in the layout of the hand-written case
tests/importers/cases/valid/openhands_output_metrics.jsonl (OpenHands 0.51 on SWE-bench Lite): a run
action per call, with its model_response and usage, its observation, and metrics.token_usages."""

import json
from pathlib import Path

MODEL = "claude-sonnet-4-20250514"
BASE_TOKENS = 6_000  # the system prompt and tools every call sends


def _usage(prompt: int, completion: int) -> dict:
    return {"completion_tokens": completion, "prompt_tokens": prompt, "total_tokens": prompt + completion,
            "completion_tokens_details": None,
            "prompt_tokens_details": {"audio_tokens": None, "cached_tokens": 0, "text_tokens": None,
                                      "image_tokens": None},
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def _time(second: int) -> str:
    return f"2025-07-12T09:{40 + second // 60:02d}:{second % 60:02d}.000000"


def write_instance(path: Path, calls: int = 12, output_chars: int = 6_000) -> Path:
    history = [
        {"id": 0, "timestamp": _time(0), "source": "agent", "message": "You are OpenHands agent.", "action": "system",
         "args": {"content": "You are OpenHands agent.", "openhands_version": "0.51.1", "agent_class": "CodeActAgent"}},
        {"id": 1, "timestamp": _time(1), "source": "user", "message": "Make slugify drop apostrophes.",
         "action": "message", "args": {"content": "Make slugify drop apostrophes.", "image_urls": None,
                                       "wait_for_response": False}},
    ]
    usages, prompt = [], BASE_TOKENS
    for call in range(calls):
        response, tool = f"chatcmpl-n{call}", f"toolu_n{call}"
        command = f"sed -n '1,400p' src/textkit/part_{call}.py"
        history.append({
            "id": len(history), "timestamp": _time(2 + 3 * call), "source": "agent", "message": f"Running command: {command}",
            "action": "run", "tool_call_metadata": {
                "function_name": "execute_bash", "tool_call_id": tool, "model_response": {
                    "id": response, "created": 1752300002 + call, "model": MODEL, "object": "chat.completion",
                    "choices": [{"finish_reason": "tool_calls", "index": 0, "message": {
                        "content": f"Reading part {call}.", "role": "assistant", "tool_calls": [{
                            "index": 1, "function": {"arguments": json.dumps({"command": command}),
                                                     "name": "execute_bash"}, "id": tool, "type": "function"}]}}],
                    "usage": _usage(prompt, 60)}, "total_calls_in_response": 1},
            "args": {"command": command, "is_input": False, "thought": f"Reading part {call}.", "blocking": False,
                     "hidden": False, "confirmation_state": "confirmed"}})
        output = (f"def part_{call}(text):\n    return text.replace(\"'\", '')  # line\n" * output_chars)[:output_chars]
        history.append({
            "id": len(history), "timestamp": _time(3 + 3 * call), "source": "agent",
            "message": f"Command `{command}` executed with exit code 0.", "cause": len(history) - 1,
            "observation": "run", "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": tool,
                                                         "model_response": {"id": response},
                                                         "total_calls_in_response": 1},
            "content": output, "extras": {"command": command, "metadata": {"exit_code": 0}, "hidden": False},
            "success": True})
        usages.append({"model": f"anthropic/{MODEL}", "prompt_tokens": prompt, "completion_tokens": 60,
                       "cache_read_tokens": 0, "cache_write_tokens": 0, "context_window": 200000,
                       "per_turn_token": prompt + 60, "response_id": response})
        prompt += output_chars // 4 + 40
    total = sum(u["prompt_tokens"] for u in usages)
    instance = {
        "instance_id": "textkit__textkit-101", "test_result": {"git_patch": ""},
        "instruction": "Make slugify drop apostrophes.",
        "metadata": {"agent_class": "CodeActAgent", "llm_config": {
            "model": f"anthropic/{MODEL}", "caching_prompt": False, "temperature": 0.0},
            "max_iterations": 100, "dataset": "princeton-nlp__SWE-bench_Lite-test", "condenser_config": {"type": "noop"}},
        "history": history,
        "metrics": {"accumulated_cost": round((3 * total + 15 * 60 * calls) / 1_000_000, 6),
                    "accumulated_token_usage": {"model": "default", "prompt_tokens": total,
                                                "completion_tokens": 60 * calls, "cache_read_tokens": 0,
                                                "cache_write_tokens": 0, "context_window": 200000},
                    "token_usages": usages},
        "error": None, "instance": {"repo": "textkit/textkit"},
    }
    path.write_text(json.dumps(instance) + "\n", encoding="utf-8")
    return path
