"""The school report's pages, under /school/report/."""

from django.urls import path

from .views import report

urlpatterns = [
    path("report/", report.report, name="report"),
    path("report/build/", report.build, name="report_build"),
    path("report/jobs/<int:pk>/", report.job_status, name="report_job"),
    path("report/export/<str:fmt>/", report.export, name="report_export"),
]
