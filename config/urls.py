from django.contrib import admin
from django.urls import include, path

from classroom.views.accounts import home, sign_up

from .health import healthz

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/sign-up/", sign_up, name="sign_up"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("classroom.urls")),
    path("", include("classroom.report_urls")),
    path("", include("games.urls")),
]
