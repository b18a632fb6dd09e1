"""`python tests/cli/plugin/run.py ARGS` is `gradlint ARGS` with the test-only rules loaded."""

import sys

import gradlint_test_rules  # noqa: F401  (registers GL991-GL994)

from gradlint.cli import main

sys.exit(main())
