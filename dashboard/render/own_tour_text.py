"""The words of the tour of your own session: the guided tour's steps told again on the loaded log, with its
own numbers and its own compactions, for a person who does not code. Format strings over own_tour.py's
numbers (already written for people: "697 K", "3 files"); the glossary is shown beside every step."""

from dashboard.render.tour_text import TourStep

OWN_STEPS = (
    TourStep(
        "intro", "Your session: the context fills up",
        "Every time your agent asks the model for its next step, it sends the whole conversation so far.",
        "This is **{label}**: **{messages} messages** and **{chars} characters** (about {tokens} tokens), "
        "and the agent asked the model for its next step **{calls} times**. {usage_sentence} Each coloured "
        "block below is one message, as wide as it is long (point at one for its real size).",
        "Sending all of it before every step is slow and costs money, and past the model's window "
        "({window} tokens here) the model refuses it. So the agent must make its history smaller from time to "
        "time: it *compacts* it. The next steps show what filled your session and what your agent did about it."),
    TourStep(
        "fills", "What fills your context",
        "Not all of the context is conversation: most of it is usually what the tools sent back.",
        "At its fullest call (call {peak_call}), your session carried **{peak_tokens} tokens**: {fills}.",
        "A tool result (a file read, a command's output, a search) stays in the history long after the agent "
        "has used it. That is why agents shrink old tool results first: it costs nothing and loses little."),
    TourStep(
        "own", "What your agent did: its own compactions",
        "{own_lead}",
        "{own_what}",
        "A compaction throws away the details and keeps a summary. It costs an extra model call, and the next "
        "call has to write everything again to the model's cache (a memory of what was sent before, which makes "
        "calls cheaper). If the summary forgot something the agent still needed, the agent has to read it "
        "again: that is the measured price of what the compaction lost. The Compactions page opens each one."),
    TourStep(
        "layers", "What the tutorial's four layers would do",
        "The tutorial's design shrinks the history in four layers, cheapest first, before every step.",
        "At the sidebar's settings, on your session: layer 3 put {persisted_count} on disk, layer 1 snipped "
        "{snipped_count} messages out of the middle, layer 2 replaced {placeholder_count} old tool results "
        "with a one-line note, and layer 4 {summary_words}. One pass took the history from **{input_chars} "
        "to {final_chars} characters**.",
        "The three first layers need no AI call, so they run first; only if the history is still over "
        "CONTEXT_LIMIT ({context_limit} characters) does layer 4 ask for a summary, which is the only step that "
        "can forget a detail."),
    TourStep(
        "recap", "Recap: your session",
        "{recap_lead}",
        "One pass of the four layers saved **{saved_share} of the context**; most of it ({cheap_share}) came from "
        "the three layers that need no AI. {own_recap}",
        "To go further: the Compactions page opens each of your agent's compactions, the Replay page replays "
        "your whole session call by call, and Tune and Compare try other settings and other agents' designs "
        "on it."),
)
