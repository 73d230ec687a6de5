"""The guided tour's words, apart from the page so they can be read and edited as text.

Each step's texts are format strings over the numbers of dashboard.tour.tour_numbers (already written
for people: "697 K", "1 output"). Written for an audience that does not code: every technical word
is explained the first time, or in dashboard.glossary, shown beside every step.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class TourStep:
    key: str  # "intro", "L3", "L1", "L2", "L4" or "recap"
    title: str
    lead: str  # one sentence: the point of the step
    what: str  # what happened to this conversation
    why: str  # why it is done this way


STEPS = (
    TourStep(
        "intro", "The problem: the context fills up",
        "An agent's conversation grows with every step, and all of it is sent to the model every time.",
        "This is the example conversation from the tutorial. Someone asks the agent to *write a command-line "
        "tool*; the agent then reads {input_reads} files, one after the other, and finally prints a big data "
        "file. That makes **{input_messages} messages** and **{input_chars} characters** (about "
        "{input_tokens} tokens) — each coloured block below is one message, as wide as it is long (the "
        "shortest are drawn a little wider, so that you can see them; point at one for its real size).",
        "Sending all of this before every step is slow and expensive, and past a certain size the model "
        "refuses it. So before every step the agent shrinks its history in four layers, **cheapest "
        "first**. The layers keep the numbers the tutorial gave them, so they run in the order 3, 1, 2, 4: "
        "the three that cost nothing first, the one that needs an extra AI call last. We now watch each one "
        "do its job on this conversation."),
    TourStep(
        "L3", "Layer 3: put huge outputs on disk",
        "A single enormous tool result is moved to a file; a short preview stays in the conversation.",
        "The last tool result is a dump of {biggest_output} characters — more than everything else together. "
        "Layer 3 saved {persisted_count} to a file and left a {preview_chars}-character preview in its "
        "place (pink). The conversation went from **{input_chars} to {l3_chars} characters**, with the "
        "same {input_messages} messages.",
        "Nothing is lost: the full output is on disk, and the preview tells the model where to find it. "
        "It costs no AI call, so it always runs first. It only acts on outputs over PERSIST_THRESHOLD "
        "({persist_threshold} characters)."),
    TourStep(
        "L1", "Layer 1: snip the middle",
        "When there are too many messages, the oldest ones after the opening are dropped.",
        "The conversation had {input_messages} messages, more than the {max_messages} allowed. Layer 1 "
        "kept the first {keep_head} (the original request) and the newest ones, and replaced the "
        "{snipped_count} messages in between with one short note (grey) saying how many were cut. Now: "
        "**{l1_messages} messages, {l1_chars} characters**.",
        "The beginning says what the job is, and the end says where the agent is now; the middle is the "
        "part the model needs least. A tool call and its result are never separated, or the model's "
        "provider would reject the conversation."),
    TourStep(
        "L2", "Layer 2: placeholders for old tool results",
        "Old tool results are swapped for a one-line note; only the newest few stay whole.",
        "Layer 2 kept the newest {keep_recent} tool results whole (KEEP_RECENT) and replaced "
        "{placeholder_count} older ones ({placeholder_chars} characters of output) with the note "
        "*\"Earlier tool result compacted. Re-run if needed.\"* (yellow). Now: **{l2_chars} characters**.",
        "The model already read those outputs and acted on them. If it needs one again, it can simply run "
        "the tool again. Like the layers before, it needs no AI call."),
    TourStep(
        "L4", "Layer 4: ask for a summary",
        "Only if the history is still too big does the agent have it summarised: in a real agent, one more AI call.",
        "After three layers the history is {l2_chars} characters, still over CONTEXT_LIMIT "
        "({context_limit} characters). So the full history was first saved to a file (the transcript), then "
        "replaced by **one summary message of {l4_chars} characters** (purple) that keeps the goal, key "
        "findings, files touched, work left and the user's constraints. Here it was written by "
        "{summary_author}.",
        "A real agent pays for this step with an extra AI call, and it is the only one that can forget a detail, "
        "so it is the last resort. The tour uses a CONTEXT_LIMIT of {context_limit} characters so that its small "
        "example reaches this layer; with the tutorial's own {tutorial_limit} it would not have been needed here "
        "at all."),
    TourStep(
        "recap", "Recap: what it saved",
        "Four layers, cheapest first, took the history from {input_chars} to {final_chars} characters.",
        "Saved: **{saved_share} of the context**. Layer 3 removed {l3_removed}, layer 1 {l1_removed}, "
        "layer 2 {l2_removed} and layer 4 {l4_removed} characters. Every full output and the whole "
        "transcript are still on disk. The chart shows each layer's share of the whole saving, so each bar is "
        "as tall as what that layer removed.",
        "Most of the saving ({cheap_share}) came from the three cheap layers that need no AI. The other pages of "
        "this dashboard "
        "let you load your own conversation, move the settings, replay a whole session call by call and "
        "compare this design with other agents' approaches."),
)
