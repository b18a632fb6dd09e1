"""`python -m gradlint.dynamic TARGET ...` (same as `gradlint gradcheck`)."""

import sys

from .cli import main

sys.exit(main())
