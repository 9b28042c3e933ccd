"""NMBR 9 on the pages, with the whole-class cards the teacher turns."""

from .presenter import PRESENTER as PAGE

__all__ = ["PAGE"]
