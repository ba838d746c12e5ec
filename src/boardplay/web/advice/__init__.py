"""Hints and reviews: positions judged by a search in the worker pool, a review's progress and its
stored results."""
