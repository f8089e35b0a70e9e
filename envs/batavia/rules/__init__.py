"""The rules of Batavia as per-row functions compiled with numba."""
