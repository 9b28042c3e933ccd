from importlib import import_module

from django.urls import path

from .pages import PAGES
from .views import play, push, teacher

app_name = "games"

urlpatterns = [
    path("tables/<int:pk>/poll/", play.table_poll, name="table_poll"),  # first: the most frequent
    path("tables/<int:pk>/events/", push.table_events, name="table_events"),
    path("classes/<int:pk>/play/", teacher.session_new, name="session_new"),
    path("sessions/<int:pk>/", teacher.session_live, name="session_live"),
    path("sessions/<int:pk>/control/", teacher.session_control, name="session_control"),
    path("tables/<int:pk>/projector/", teacher.table_projector, name="table_projector"),
    path("tables/<int:pk>/", play.table_play, name="table_play"),
    path("tables/<int:pk>/move/", play.table_move, name="table_move"),
    path("me/practise/", play.practice_alone, name="practice_alone"),
]
# A game with pages of its own (NMBR 9's whole-class cards) names them in its
# page package, in this namespace.
for page in PAGES.values():
    if page.urls:
        urlpatterns += import_module(page.urls).urlpatterns
