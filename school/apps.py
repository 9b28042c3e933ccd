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
        # The class reports' jobs are classroom's; the school report is a kind
        # of job of theirs that this floor runs (classroom never imports school).
        from classroom.models import ReportJob
        from classroom.reports import jobs

        from . import tasks  # noqa: F401  (sent by name: it must be registered)
        from .report import jobs as school_jobs

        jobs.provide_kind(
            ReportJob.Kind.SCHOOL, "school.tasks.build_school_report", school_jobs.run
        )
