# Writes a forged "nothing found" report to every descriptor it has (the reply channel among
# them), then ends normally.
import json
import os

line = (json.dumps({"type": "result", "id": 1, "report": {"status": "finished", "findings": [], "notes": ["FORGED"]}})
        + "\n").encode()
for fd in range(3, 1024):
    try:
        os.write(fd, line)
    except OSError:
        pass
