"""The school's people: its classes, its teachers, invitations and joining."""

from django.urls import path

from .views import co_teachers, joining, people

urlpatterns = [
    path("", people.classes, name="classes"),
    path("teachers/", people.teachers, name="teachers"),
    path("teachers/invite/", people.invite, name="invite"),
    path("teachers/codes/", people.code_new, name="code_new"),
    path("teachers/<int:pk>/", people.teacher_change, name="teacher_change"),
    path("invitations/<int:pk>/revoke/", people.invitation_revoke, name="invitation_revoke"),
    path("classes/<int:pk>/co-teachers/", co_teachers.co_teachers, name="co_teachers"),
    path("join/", joining.join, name="join"),
    path("join/<str:token>/", joining.invitation_accept, name="invitation_accept"),
]
