"""Hypothesis strategies for valid conversations: parallel calls, mixed blocks, string and empty content."""

from hypothesis import strategies as st

from compaction import Settings

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
output = st.one_of(
    st.integers(0, 3_000).map(lambda n: "o" * n),
    texts,
    st.lists(st.integers(0, 400).map(lambda n: {"type": "text", "text": "b" * n}), max_size=3),
    st.just(""),
)


@st.composite
def conversations(draw, max_turns=30):
    messages = [{"role": "user", "content": draw(texts) or "start"}]
    counter = 0
    for _ in range(draw(st.integers(0, max_turns))):
        kind = draw(st.sampled_from(["tool", "tool", "tool", "text", "string", "mixed", "empty"]))
        if kind in ("tool", "mixed"):
            ids = [f"id{counter + k}" for k in range(draw(st.integers(1, 3)))]
            counter += len(ids)
            uses = [{"type": "tool_use", "id": i, "name": draw(st.sampled_from(["bash", "read_file"])),
                     "input": {"path": f"f{i}"}} for i in ids]
            lead = [{"type": "text", "text": draw(texts)}] if draw(st.booleans()) else []
            messages.append({"role": "assistant", "content": lead + uses})
            answers = [{"type": "tool_result", "tool_use_id": i, "content": draw(output)} for i in ids]
            if kind == "mixed":
                answers.append({"type": "text", "text": draw(texts)})
            messages.append({"role": "user", "content": answers})
        elif kind == "text":
            messages.append({"role": "assistant", "content": [{"type": "text", "text": draw(texts)}]})
            messages.append({"role": "user", "content": [{"type": "text", "text": draw(texts)}]})
        elif kind == "string":
            messages.append({"role": "assistant", "content": draw(texts)})
            messages.append({"role": "user", "content": draw(texts)})
        else:
            messages.append({"role": "assistant", "content": []})
            messages.append({"role": "user", "content": ""})
    if draw(st.booleans()):
        messages.append({"role": "assistant", "content": "done"})
    return messages


settings = st.builds(
    Settings,
    context_limit=st.sampled_from([1, 500, 5_000, 50_000, 100_000_000]),
    keep_recent=st.sampled_from([0, 1, 3, 1_000]),
    persist_threshold=st.sampled_from([1, 100, 30_000]),
    max_messages=st.sampled_from([4, 5, 8, 50, 10_000]),
    max_bytes=st.sampled_from([0, 500, 200_000]),
    preview_chars=st.sampled_from([0, 20, 2_000]),
)

# the incremental loop's and the kernel's equivalence tests: every setting at values that make it act
random_settings = st.builds(
    Settings,
    context_limit=st.sampled_from([1, 300, 2_000, 5_000, 50_000, 100_000_000]),
    keep_recent=st.sampled_from([0, 1, 2, 3, 10, 1_000]),
    persist_threshold=st.sampled_from([1, 100, 30_000]),
    max_messages=st.sampled_from([4, 5, 8, 13, 50, 10_000]),
    max_bytes=st.sampled_from([0, 500, 200_000]),
    preview_chars=st.sampled_from([0, 20, 2_000]),
    min_placeholder_chars=st.sampled_from([0, 10, 120, 5_000]),
    keep_head=st.sampled_from([1, 3]),
    reactive_keep_last=st.sampled_from([1, 2, 5]),
    summary_input_cap=st.sampled_from([1_000, 80_000]),
)
