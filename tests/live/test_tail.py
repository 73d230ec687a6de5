"""Reading a growing file from its last offset: whole lines only, a half-written line left for the
next read, and a file truncated, rewritten or replaced read again from the start, with the reason."""

import os

from compaction.live.tail import CHUNK, PROBE, FileTail


def lines_of(tail: FileTail) -> list[tuple[int, bytes]]:
    assert tail.check() is None
    return list(tail.lines())


def test_only_new_whole_lines_are_read(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n{"c": ')
    tail = FileTail(path)
    assert lines_of(tail) == [(1, b'{"a": 1}'), (2, b'{"b": 2}')]
    assert (tail.offset, tail.partial) == (18, 6)
    with open(path, "ab") as handle:
        handle.write(b'3}\n{"d": 4}\n')
    assert lines_of(tail) == [(3, b'{"c": 3}'), (4, b'{"d": 4}')]
    assert [(read.start, read.end, read.lines, read.partial) for read in tail.reads] == [(0, 18, 2, 6), (18, 36, 2, 0)]
    assert lines_of(tail) == [] and len(tail.reads) == 2  # nothing new: no read recorded


def test_a_line_still_being_written_is_a_read_of_its_own(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n')
    tail = FileTail(path)
    lines_of(tail)
    with open(path, "ab") as handle:
        handle.write(b'{"b": ')
    assert lines_of(tail) == []
    assert tail.last_read.start == tail.last_read.end == 9 and tail.last_read.partial == 6


def test_a_line_longer_than_a_chunk_is_read_whole(tmp_path):
    path = tmp_path / "log.jsonl"
    long = b'{"text": "' + b"x" * (CHUNK * 2 + 10) + b'"}'
    path.write_bytes(long + b"\n" + long[:100])
    tail = FileTail(path)
    assert lines_of(tail) == [(1, long)]
    assert tail.partial == 100


def test_max_bytes_leaves_the_rest_for_the_next_read(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(b'{"n": %d}\n' % n for n in range(10)))
    tail = FileTail(path)
    first = list(tail.lines(max_bytes=20))  # 9 bytes a line: it stops at the first line end past 20
    assert [number for number, _ in first] == [1, 2, 3]
    assert [number for number, _ in lines_of(tail)] == list(range(4, 11))


def test_a_truncated_file_is_read_again_from_the_start(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n')
    tail = FileTail(path)
    lines_of(tail)
    path.write_bytes(b'{"z": 9}\n')
    reason = tail.check()
    assert reason == "the file was truncated (9 bytes, 18 had been read)"
    assert list(tail.lines()) == [(1, b'{"z": 9}')]
    assert (tail.restarts, tail.last_read.start, tail.last_read.restarted) == (1, 0, reason)


def test_a_file_rewritten_in_place_is_read_again_from_the_start(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n')
    tail = FileTail(path)
    lines_of(tail)
    with open(path, "r+b") as handle:  # the same inode, the same size and more, other bytes
        handle.write(b'{"x": 7}\n{"y": 8}\n{"w": 0}\n')
    assert tail.check() == "the file was rewritten: bytes already read have changed"
    assert [number for number, _ in tail.lines()] == [1, 2, 3]


def test_a_file_replaced_by_another_is_read_again_from_the_start(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"a": 1}\n')
    tail = FileTail(path)
    lines_of(tail)
    replacement = tmp_path / "new.jsonl"
    replacement.write_bytes(b'{"a": 1}\n{"b": 2}\n')
    os.replace(replacement, path)
    assert tail.check() == "the file was replaced by another one"
    assert [number for number, _ in tail.lines()] == [1, 2]


def test_appending_is_not_taken_for_a_rewrite(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"")
    tail = FileTail(path)
    for n in range(200):
        with open(path, "ab") as handle:
            handle.write(b'{"n": %d}\n' % n)
        assert tail.check() is None
        assert [value for _, value in tail.lines()] == [b'{"n": %d}' % n]
    assert tail.restarts == 0 and tail.line == 200


def middle_rewritten(path, size: int = 20_000):
    """A log of `size` bytes whose middle line is then changed by one digit, in place: the same size, the same
    first and last bytes."""
    lines = [b'{"n": %06d, "text": "%s"}\n' % (n, b"x" * 40) for n in range(size // 64)]
    path.write_bytes(b"".join(lines))
    return lines


def test_a_same_size_rewrite_in_the_middle_is_read_again(tmp_path):
    path = tmp_path / "log.jsonl"
    lines = middle_rewritten(path)
    tail = FileTail(path)
    lines_of(tail)
    position = tail._between[len(tail._between) // 2][0]  # a point in the middle whose bytes are compared
    size, stamp = path.stat().st_size, path.stat().st_mtime_ns
    with open(path, "r+b") as handle:
        handle.seek(position)
        handle.write(b"Z")
    os.utime(path, ns=(stamp, stamp))  # even with the time put back
    assert path.stat().st_size == size
    assert tail.check() == "the file was rewritten: bytes already read have changed"
    assert len(list(tail.lines())) == len(lines) and tail.restarts == 1


def test_a_same_size_rewrite_between_the_probes_is_seen_by_its_time(tmp_path):
    """A change that no fingerprint covers: the file's time moved while its size stayed the one read."""
    path = tmp_path / "log.jsonl"
    lines = middle_rewritten(path)
    tail = FileTail(path)
    lines_of(tail)
    probed = {position for position, _ in tail._between}
    target = next(n for n in range(1, len(lines) - 1)
                  if all(abs(sum(len(line) for line in lines[:n]) - p) > 2 * PROBE for p in probed))
    position = sum(len(line) for line in lines[:target]) + 8  # inside the number, far from every probe
    stamp = path.stat().st_mtime_ns
    with open(path, "r+b") as handle:
        handle.seek(position)
        handle.write(b"9")
    os.utime(path, ns=(stamp + 1_000_000, stamp + 1_000_000))  # a filesystem whose clock ticks coarsely
    assert tail.check() == "the file was rewritten: its time changed and its size did not"
    assert tail.restarts == 1
