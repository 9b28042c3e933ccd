"""The track of ultimate numbers on the pages."""

from .presenter import PRESENTER as PAGE

__all__ = ["PAGE"]
