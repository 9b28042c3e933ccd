from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self) -> None:
        # The report jobs send their tasks by name (the job bookkeeping must
        # not import the tasks that call it): the names must be registered.
        from classroom import tasks  # noqa: F401
