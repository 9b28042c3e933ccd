from django.urls import path

from .views import privacy, pupil, teacher

app_name = "classroom"

urlpatterns = [
    path("classes/", teacher.class_list, name="class_list"),
    path("classes/new/", teacher.class_create, name="class_create"),
    path("classes/<int:pk>/", teacher.class_detail, name="class_detail"),
    path("classes/<int:pk>/edit/", teacher.class_edit, name="class_edit"),
    path("classes/<int:pk>/archive/", teacher.class_archive, name="class_archive"),
    path("classes/<int:pk>/copy/", teacher.class_copy, name="class_copy"),
    path("classes/<int:pk>/pupils/add/", teacher.pupils_add, name="pupils_add"),
    path("classes/<int:pk>/code/reset/", teacher.code_reset, name="code_reset"),
    path("classes/<int:pk>/qr.svg", teacher.class_qr, name="class_qr"),
    path("classes/<int:pk>/cards/", teacher.sign_in_cards, name="sign_in_cards"),
    path("classes/<int:pk>/sign-out-all/", teacher.sign_out_all, name="sign_out_all"),
    path("pupils/<int:pk>/edit/", teacher.pupil_edit, name="pupil_edit"),
    path("pupils/<int:pk>/unlock/", teacher.pupil_unlock, name="pupil_unlock"),
    path("pupils/<int:pk>/export/", teacher.pupil_export, name="pupil_export"),
    path("pupils/<int:pk>/erase/", teacher.pupil_erase, name="pupil_erase"),
    path("join/", pupil.join, name="join"),
    path("join/<str:code>/", pupil.join_class, name="join_class"),
    path("join/<str:code>/<int:pupil_pk>/", pupil.join_pupil, name="join_pupil"),
    path("me/", pupil.pupil_home, name="pupil_home"),
    path("me/sign-out/", pupil.pupil_sign_out, name="pupil_sign_out"),
    path("privacy/", privacy.privacy_page, name="privacy"),
]
