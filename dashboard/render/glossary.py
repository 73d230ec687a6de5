"""The words the dashboard uses, explained for people who do not code. One list, shown from the sidebar
of every page and beside every step of the guided tour. No Streamlit here."""

GLOSSARY = {
    "model": "The AI (a large language model, like Claude) that reads the conversation and decides what to do "
             "next.",
    "agent": "A model working in a loop: it asks for a tool, reads what the tool returned, and asks again.",
    "session": "One run of the agent on a task, from the person's request to the last step: the conversation "
               "a log records. Here it never means your browser (see *your workspace*).",
    "context": "Everything the model is sent at each step: the whole conversation so far. It is sent again "
               "every time, because the model remembers nothing between steps.",
    "token": "The unit models read and bill by: roughly four characters of English or code.",
    "tool call": "The model asks a program to do something: read a file, run a command.",
    "tool result": "What the program sends back (its output). It goes into the conversation, so big outputs "
                   "make the context grow fast.",
    "CONTEXT_LIMIT": "The size (in characters) the conversation may reach before the agent asks for a summary. "
                     "The tutorial uses 50,000; the guided tour uses 8,000, so that its small example reaches every "
                     "layer.",
    "placeholder": "A one-line note put in place of an old tool result: *\"Earlier tool result compacted. Re-run "
                   "if needed.\"* (layer 2).",
    "snip": "Dropping messages from the middle of a long conversation, keeping the start (the task) and the "
            "newest ones; a short note says how many were cut (layer 1).",
    "summary": "One message that replaces the whole conversation: the goal, what was found, the files, the work "
               "left and the person's constraints (layer 4). A real agent has a model write it; here the offline "
               "summariser writes it unless you ask Claude. The full conversation is saved to a file first.",
    "cache": "The provider keeps what was sent last time; when the next call starts with exactly the same "
             "text, that part is billed at a tenth of the price. Changing an old message (a placeholder, a "
             "snip, a summary) ends the match there, so compaction trades fewer tokens for fewer cache hits.",
    "your workspace": "Your own corner of this app while your browser tab is open: your settings, the "
                      "conversation you loaded and the files layer 3 saved. Nobody else sees it; it is cleared "
                      "after a day without use.",
}


def glossary_markdown() -> str:
    """The glossary as a markdown list."""
    return "\n".join(f"- **{word}**: {meaning}" for word, meaning in GLOSSARY.items())
