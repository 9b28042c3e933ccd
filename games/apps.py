from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from classroom import play_list
        from games.services import play_list_of

        play_list.provide(play_list_of)
