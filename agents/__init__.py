"""Agents that act on a batch of games: random, scripted baselines, trained policies."""
