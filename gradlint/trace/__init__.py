"""`gradlint trace`: run a real training program for a few optimizer steps with instrumentation
and report what it observed as ordinary findings (see docs/trace.md).

Importing this package imports nothing heavy. The parts that import torch (torch_probe.py),
TensorFlow (tf_probe.py) or JAX (jax_probe.py) are installed by an import hook only when the
traced program imports that framework, and they run only in the traced process: the child of
`gradlint trace` or a pytest run given `--gradlint-trace`. The CLI, `gradlint check` and the
language server read trace results without importing any framework.

Modules that the child process imports (sites, state, hooks, program, child, the probes) use
the standard library only: the bootstrap registers a bare `gradlint` package so that the
user's interpreter needs none of the linter's dependencies.
"""
