"""The seed document's demo conversation, message for message (123 messages, about 697 KB).

60 read_file turns of ~760 characters each, then one `cat data/dump.json` returning ~638 KB: the
input the tutorial uses to show L3, L1, L2 and L4 each doing their part.
"""

FIRST_REQUEST = "帮我写一个命令行工具 hello.py"
READ_TURNS = 60
DUMP_ROWS = 30000


def seed_demo() -> list[dict]:
    """A fresh copy of the demo conversation (callers may change it freely)."""
    messages: list[dict] = [{"role": "user", "content": FIRST_REQUEST}]

    for i in range(READ_TURNS):
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": "read_file", "input": {"path": f"src/module{i}.py"}}]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}",
             "content": f"def func_{i}():\n    return {i}\n" * 25}]})
    messages.append({"role": "assistant", "content": [
        {"type": "tool_use", "id": "tbig", "name": "bash", "input": {"command": "cat data/dump.json"}}]})
    rows = ",".join(f'[1,"row-{i}",{i}]' for i in range(DUMP_ROWS))
    messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "tbig", "content": '{"rows": [' + rows + "]}"}]})
    return messages
