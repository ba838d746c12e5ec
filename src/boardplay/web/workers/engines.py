"""Imported by the AI workers' fork server (``ai_worker.PRELOAD``): every game the registry can
load, loaded once there, so each worker forked from it starts with the engines in memory instead
of importing them itself. A game that fails to load is left out, as the lobby leaves it out."""

from boardplay.web.catalogue import REGISTRY

REGISTRY.names()
