"""The school's models, one module each (helpers of the school add theirs here)."""

from .audit import AuditEntry
from .invitation import Invitation
from .school import School

__all__ = ["AuditEntry", "Invitation", "School"]
