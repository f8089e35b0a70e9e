"""Self-play PPO training on the registered games."""
