from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path

from classroom.forms import TeacherSignInForm
from classroom.views.accounts import (
    LimitedPasswordResetView,
    home,
    sign_up,
    sign_up_finish,
    sign_up_sent,
)

from .health import healthz

handler400 = "config.errors.bad_request"
handler404 = "config.errors.page_not_found"

# The games' URLs come first: a tablet's poll every 2 s is the most frequent
# request, and Django tries the patterns in order.
urlpatterns = [
    path("", include("games.urls")),
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/sign-up/", sign_up, name="sign_up"),
    path("accounts/sign-up/sent/", sign_up_sent, name="sign_up_sent"),
    path("accounts/sign-up/<str:token>/", sign_up_finish, name="sign_up_finish"),
    path(
        "accounts/login/",
        LoginView.as_view(authentication_form=TeacherSignInForm),
        name="login",
    ),
    path("accounts/password_reset/", LimitedPasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    # Teachers' single sign-on: allauth's OpenID Connect flow alone, under accounts/oidc/
    # (SOCIALACCOUNT_OPENID_CONNECT_URL_PREFIX; school.sso_adapter).
    path("accounts/", include("allauth.socialaccount.providers.openid_connect.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("school/", include("school.urls")),
    path("admin/", admin.site.urls),
    path("", include("classroom.urls")),
    path("", include("config.report_urls")),
]
