"""Number Quest on the pages: its presenter, drawing, start options and templates."""

from .presenter import PRESENTER as PAGE

__all__ = ["PAGE"]
