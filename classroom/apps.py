from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self) -> None:
        # The report jobs send their tasks by name (the job bookkeeping must
        # not import the tasks that call it): the names must be registered.
        from classroom import tasks, translate_once  # noqa: F401

        # Before any template is compiled (the first of our apps): a page's
        # written words are looked up once per language, not at every draw.
        translate_once.install()
