"""The year's end and the record (part E of the school)."""

from django.urls import path

from .views import record, yearend

urlpatterns = [
    path("classes/<int:pk>/hand-over/", yearend.class_hand_over, name="class_hand_over"),
    path("classes/<int:pk>/move-pupils/", yearend.pupils_move, name="pupils_move"),
    path("pupils/<int:pk>/leaves/", yearend.pupil_leaves, name="pupil_leaves"),
    path("year-end/", yearend.year_end, name="year_end"),
    path("settings/", yearend.school_settings, name="settings"),
    path("record/", record.record_page, name="record"),
]
