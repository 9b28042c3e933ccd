"""What classroom tells the floors above it (games) without importing them."""

from django.dispatch import Signal

# Sent with ``generations``: {pupil id: their new sign-in generation}, once the
# pupils are signed out (pupil_auth.sign_out, "sign out every pupil"). Whatever
# was handed to them for their sign-in (a table's poll token) must end.
pupils_signed_out = Signal()
