"""Agents that choose actions, and the tools that pit them against each other."""

from boardplay.ai.agents import Agent, Analysis, GreedyAgent, RandomAgent, agent_analysis
from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.specs import AGENTS, LEVEL_NAMES, level_spec, make_agent

__all__ = [
    "AGENTS",
    "LEVEL_NAMES",
    "Agent",
    "Analysis",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_analysis",
    "level_spec",
    "make_agent",
]
