"""NUM-X on the pages: hidden hands, tricks that climb, the out-of-turn
Rainbow, the tour winner's hand-out and the count pupils make themselves."""

from .presenter import PRESENTER as PAGE

__all__ = ["PAGE"]
