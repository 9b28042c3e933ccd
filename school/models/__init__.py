"""The school's models, one module each (helpers of the school add theirs here)."""

from .audit import AuditEntry  # noqa: F401  (part E: the record of who did what)
from .school import School

__all__ = ["School"]
