"""A command that answers JSON Lines: one output line per input line, in order."""

import json
import sys


def answer_lines(command, stdin, answer, *, blank: dict, refused, own_stdout=True) -> None:
    """Write ``answer(line)`` (a dict, as JSON) for each line of ``stdin`` on the
    command's stdout: ``blank`` for an empty line and ``refused(message)`` for a line
    that is not UTF-8, so output line *n* always answers input line *n*. Bytes are
    decoded line by line (a bad line is refused alone instead of ending the run); the
    output is UTF-8 JSON with names unescaped (``own_stdout``: the command writes to
    the process's stdout, not to a stream its caller gave)."""
    if stdin is None:
        stdin = sys.stdin.buffer
    if own_stdout and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    write = command.stdout.write
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    for line in stdin:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as error:
                write(dumps(refused(f"not UTF-8 text: {error}")))
                continue
        if not line or line.isspace():
            write(dumps(blank))
            continue
        write(dumps(answer(line)))
