from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SchoolConfig(AppConfig):
    name = "school"
    verbose_name = _("School")

    def ready(self) -> None:
        # Classroom's exports and erasures are written in the school's record
        # through a signal (classroom cannot import the school).
        from school import record

        record.connect()
        # Beat sends the leavers' erasure by name: the name must be registered.
        from school import tasks  # noqa: F401
