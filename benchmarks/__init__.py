"""Throughput, soak and tournament commands (`python -m benchmarks.<name>`)."""
