"""Skill reports of classroom and games: pages, exports, jobs (included by config/urls.py)."""

from django.urls import path

from classroom.views import reports
from games.views import reports as game_reports

app_name = "reports"

urlpatterns = [
    path("classes/<int:pk>/report/", reports.class_report, name="class_report"),
    path("classes/<int:pk>/report/refresh/", reports.class_refresh, name="class_refresh"),
    path("classes/<int:pk>/report/prepare/", reports.class_prepare, name="class_prepare"),
    path(
        "classes/<int:pk>/report/export.<str:fmt>",
        reports.class_export,
        name="class_export",
    ),
    path("pupils/<int:pk>/report/", reports.pupil_report, name="pupil_report"),
    path("sessions/<int:pk>/report/", game_reports.session_report, name="session_report"),
    path("reports/jobs/<int:pk>/", reports.job_status, name="job_status"),
    path("reports/jobs/<int:pk>/download/", reports.job_download, name="job_download"),
]
