"""Nambarz on the pages: the hand, the target, calculations typed step by step."""

from .presenter import PRESENTER as PAGE

__all__ = ["PAGE"]
