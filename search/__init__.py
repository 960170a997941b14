"""Game-agnostic search algorithms on the forward-model protocol."""
