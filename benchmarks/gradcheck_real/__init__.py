"""Real custom-gradient code for benchmarks/gradcheck_real/run.py (see README.md)."""
