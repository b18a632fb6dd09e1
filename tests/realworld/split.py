"""Which half of tests/realworld a mined thread belongs to.

The split is a function of the thread's URL alone, fixed before any rule is written, so that the
held-out half cannot be chosen (or re-chosen) to suit the linter. A positive and the negative that
applies its accepted fix share the URL and therefore the half.

    python tests/realworld/split.py URL [URL ...]   # prints dev or heldout for each URL
"""

from __future__ import annotations

import hashlib
import sys


def split_of(url: str) -> str:
    """'heldout' for an odd SHA-256 of the URL, 'dev' for an even one."""
    return "heldout" if int(hashlib.sha256(url.encode()).hexdigest(), 16) % 2 else "dev"


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(split_of(arg))
