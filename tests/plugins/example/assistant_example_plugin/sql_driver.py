"""Runs SQL for the host in one SQLite database kept in memory between runs.

Requests arrive as JSON lines ({"token", "code"}) on the pipe whose fd is argv[1]; after
each run the token, the exit status and ";" go to stdout and stderr, as every driver does.
"""

import json
import os
import sqlite3
import sys


def run(database: sqlite3.Connection, code: str) -> int:
    try:
        cursor = database.cursor()
        for statement in [s for s in code.split(";") if s.strip()]:
            cursor.execute(statement)
            for row in cursor.fetchall():
                print("|".join(str(value) for value in row))
        database.commit()
        return 0
    except sqlite3.Error as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1


def main() -> None:
    control = os.fdopen(int(sys.argv[1]), "rb")
    database = sqlite3.connect(":memory:")
    for line in control:
        request = json.loads(line)
        status = run(database, request["code"])
        sys.stdout.flush()
        sys.stderr.flush()
        marker = f"{request['token']}{status};".encode()
        os.write(1, marker)
        os.write(2, marker)


if __name__ == "__main__":
    main()
