"""The school's models, one module each (helpers of the school add theirs here)."""

from .invitation import Invitation
from .school import School

__all__ = ["Invitation", "School"]
