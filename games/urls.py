from django.urls import path

from .views import cards, play, push, teacher

app_name = "games"

urlpatterns = [
    path("tables/<int:pk>/poll/", play.table_poll, name="table_poll"),  # first: the most frequent
    path("tables/<int:pk>/events/", push.table_events, name="table_events"),
    path("classes/<int:pk>/play/", teacher.session_new, name="session_new"),
    path("sessions/<int:pk>/", teacher.session_live, name="session_live"),
    path("sessions/<int:pk>/control/", teacher.session_control, name="session_control"),
    path("sessions/<int:pk>/cards/", cards.session_cards, name="session_cards"),
    path("sessions/<int:pk>/cards/next/", cards.session_next_card, name="session_next_card"),
    path("tables/<int:pk>/projector/", teacher.table_projector, name="table_projector"),
    path("tables/<int:pk>/", play.table_play, name="table_play"),
    path("tables/<int:pk>/move/", play.table_move, name="table_move"),
]
