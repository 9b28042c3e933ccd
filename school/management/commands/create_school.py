"""`manage.py create_school "École des Tilleuls" admin@school.example`: a school
and its first administrator, who then invites the other teachers."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email

from classroom.models import Teacher
from classroom.validators import no_hidden_characters
from school import services
from school.models import School

NAME_LENGTH = School._meta.get_field("name").max_length


class Command(BaseCommand):
    help = (
        "Create a school and its first administrator. The password is asked twice, "
        "or read from an environment variable (--password-from-env) for scripts."
    )

    def add_arguments(self, parser):
        parser.add_argument("name", help="the school's name, as its teachers say it")
        parser.add_argument("email", help="the first administrator's e-mail address")
        parser.add_argument("--display-name", default="", help="the administrator's name")
        parser.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="read the password from this environment variable instead of asking",
        )

    def handle(self, *args, **options):
        name = options["name"].strip()
        if not name or len(name) > NAME_LENGTH:
            raise CommandError(f"The school's name must have 1 to {NAME_LENGTH} characters.")
        try:
            no_hidden_characters(name)
        except ValidationError as refused:
            raise CommandError(" ".join(refused.messages)) from None
        email = services.normalise_email(options["email"])
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"{options['email']!r} is not an e-mail address.") from None
        if services.address_taken(email):
            raise CommandError(
                f"{email} already has an account: choose another address, or give that "
                "teacher the administrator's role from the school's teachers page."
            )
        password = self._password(options["password_from_env"], email)
        teacher = services.school_create(name, email, password, options["display_name"])
        self.stdout.write(
            self.style.SUCCESS(
                f"School {teacher.school.name!r} created (id {teacher.school_id}); "
                f"{email} is its administrator. Sign in, then invite teachers from "
                "the School page."
            )
        )

    def _password(self, variable: str | None, email: str) -> str:
        candidate = Teacher(email=email)
        if variable:
            password = os.environ.get(variable, "")
            if not password:
                raise CommandError(f"The environment variable {variable} is empty or not set.")
            self._check(password, candidate)
            return password
        if not self.stdin_is_a_terminal():
            raise CommandError(
                "No terminal to ask the password at: use --password-from-env VAR."
            )
        while True:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                self.stderr.write("The two passwords differ. Try again.")
                continue
            try:
                self._check(password, candidate)
            except CommandError as refused:
                self.stderr.write(str(refused))
                continue
            return password

    @staticmethod
    def _check(password: str, teacher: Teacher) -> None:
        try:
            validate_password(password, teacher)
        except ValidationError as refused:
            raise CommandError(" ".join(refused.messages)) from None

    @staticmethod
    def stdin_is_a_terminal() -> bool:
        import sys

        return sys.stdin.isatty()
