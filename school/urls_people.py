"""The school's people: its classes, its teachers, invitations and joining."""

from django.urls import path

from .views import people

urlpatterns = [
    path("", people.classes, name="classes"),
]
