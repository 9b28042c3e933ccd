from django.urls import path

from . import cards

urlpatterns = [
    path("sessions/<int:pk>/cards/", cards.session_cards, name="session_cards"),
    path("sessions/<int:pk>/cards/next/", cards.session_next_card, name="session_next_card"),
]
