"""Agents that choose actions, and the tools that pit them against each other."""

from boardplay.ai.agents import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
