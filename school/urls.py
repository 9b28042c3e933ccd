"""The school's pages: each part of the school keeps its patterns in its own module."""

from django.urls import path  # noqa: F401  (the parts' modules add theirs below)

from . import urls_people, urls_report, urls_yearend

app_name = "school"

urlpatterns: list = []
urlpatterns += urls_people.urlpatterns
urlpatterns += urls_yearend.urlpatterns
urlpatterns += urls_report.urlpatterns
