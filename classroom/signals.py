"""What classroom tells the floors above it (games, school) without importing them."""

from django.dispatch import Signal

# Sent with ``generations``: {pupil id: their new sign-in generation}, once the
# pupils are signed out (pupil_auth.sign_out, "sign out every pupil"). Whatever
# was handed to them for their sign-in (a table's poll token) must end.
pupils_signed_out = Signal()

# Teachers no longer teach a class (taken off its co-teachers, or its teacher
# after a hand-over): sent with ``teacher_ids``. What their sign-in was handed
# for it (the live view's poll token, games.live_view) must end now, not when
# it expires.
teachers_left_class = Signal()

# A teacher did something with pupils' data that the school keeps a record of
# (school.record hears it). Sent with ``action`` (one of the names below),
# ``teacher``, ``classroom``, ``pupil`` (None once erased), ``count`` (pupils
# concerned) and ``detail`` (a dict: never a pupil's name). Sent inside the
# action's transaction: a record that cannot be written undoes the action.
pupil_data_handled = Signal()
CLASS_EXPORT = "class_export"
PUPIL_EXPORT = "pupil_export"
PUPIL_ERASED = "pupil_erased"
