from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_delete, post_save

        from classroom import play_list
        from classroom.models import Teacher
        from classroom.reports.filters import GAME_NAMES
        from classroom.reports.services import CHANCE_WORDS, provide_outcomes
        from classroom.signals import pupils_signed_out, teachers_left_class
        from games import live_view, outcomes, seating
        from games.models import Seat, Table
        from games.pages import PAGES
        from games.poll_tokens import forget_sign_ins
        from games.services import play_list_of

        play_list.provide(play_list_of)
        provide_outcomes(outcomes.table_outcome)
        GAME_NAMES.update({slug: page.title for slug, page in PAGES.items()})
        CHANCE_WORDS.update({slug: p.chance_words for slug, p in PAGES.items() if p.chance_words})
        pupils_signed_out.connect(forget_sign_ins, dispatch_uid="games.poll_tokens")
        # An erased pupil's seat goes with them, without a move or a new seating.
        post_delete.connect(seating.forget_seat, sender=Seat, dispatch_uid="seating-forget")
        # The live view's tokens end with the teacher's sign-in, and its pages
        # learn of a table added to their session (games.live_view).
        user_logged_out.connect(live_view.on_logged_out, dispatch_uid="live-view-out")
        post_save.connect(
            live_view.on_teacher_saved, sender=Teacher, dispatch_uid="live-view-teacher"
        )
        post_save.connect(live_view.on_table_saved, sender=Table, dispatch_uid="live-view-table")
        teachers_left_class.connect(
            live_view.on_teachers_left_class, dispatch_uid="live-view-left-class"
        )
