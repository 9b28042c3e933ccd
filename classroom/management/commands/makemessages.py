"""Django's makemessages, also extracting the ``N_("...")`` markers of
the learning package (its sentences are plain Python, translated where shown)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
