"""The school's models, one module each (helpers of the school add theirs here)."""

from .school import School

__all__ = ["School"]
