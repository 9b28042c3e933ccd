"""Teachers, their classes and the pupils in them.

A pupil is a first name and an initial, nothing more (plus the pictures that
identify them on a tablet). Pupils never have a Django account: they sign in to
a class with its code and their picture password, and the session remembers
them (see classroom.pupil_auth).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models, transaction
from django.db.models.functions import Greatest
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .codes import new_class_code
from .pictures import AVATARS, PASSWORD_PICTURES
from .sign_in_keys import forget
from .signals import pupils_signed_out
from .validators import no_hidden_characters


class TeacherManager(BaseUserManager):
    use_in_migrations = True

    def _create(self, email: str, password: str | None, **fields) -> Teacher:
        if not email:
            raise ValueError("A teacher needs an email address.")
        teacher = self.model(email=self.normalize_email(email).lower(), **fields)
        teacher.set_password(password)
        teacher.save(using=self._db)
        return teacher

    def get_by_natural_key(self, email: str) -> Teacher:
        # Addresses are typed by hand on tablets: capitals must not lock anyone out.
        return self.get(email__iexact=email)

    def create_user(self, email: str, password: str | None = None, **fields) -> Teacher:
        fields.setdefault("is_staff", False)
        fields.setdefault("is_superuser", False)
        return self._create(email, password, **fields)

    def create_superuser(self, email: str, password: str | None = None, **fields) -> Teacher:
        fields.update(is_staff=True, is_superuser=True)
        return self._create(email, password, **fields)


class Teacher(AbstractUser):
    """An adult account: teachers and staff sign in with an email and a password.

    What each role may see and do is ruled in ``classroom.roles``."""

    class Role(models.TextChoices):
        TEACHER = "teacher", _("teacher")
        MATHS_LEAD = "maths_lead", _("maths lead")
        ADMIN = "admin", _("school administrator")

    username = None
    email = models.EmailField(_("email address"), unique=True)
    display_name = models.CharField(
        _("name shown to pupils"), max_length=60, blank=True, validators=[no_hidden_characters]
    )
    school = models.ForeignKey(
        "school.School",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="teachers",
        verbose_name=_("school"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.TEACHER)
    # False for an account made with a school code: whoever heard the code may
    # have typed a colleague's address. The first single sign-on of the
    # address's real owner then takes the account back (school.sso_adapter).
    address_confirmed = models.BooleanField(default=True, editable=False)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    objects = TeacherManager()

    class Meta:
        verbose_name = _("teacher")
        verbose_name_plural = _("teachers")

    def __str__(self) -> str:
        return self.display_name or self.email


def current_school_year() -> str:
    today = timezone.localdate()
    start = today.year if today.month >= 8 else today.year - 1
    return f"{start}-{start + 1}"


class YearGroup(models.IntegerChoices):
    """Named by the pupils' age at the start of the year, then in each
    country's words: a French CE1 and an English Year 3 play the same games."""

    AGE_5 = 5, _("ages 5-6 (GS · Year 1)")
    AGE_6 = 6, _("ages 6-7 (CP · Year 2)")
    AGE_7 = 7, _("ages 7-8 (CE1 · Year 3)")
    AGE_8 = 8, _("ages 8-9 (CE2 · Year 4)")
    AGE_9 = 9, _("ages 9-10 (CM1 · Year 5)")
    AGE_10 = 10, _("ages 10-11 (CM2 · Year 6)")


class ClassroomQuerySet(models.QuerySet):
    def active(self) -> ClassroomQuerySet:
        return self.filter(archived_at__isnull=True)


class Classroom(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classrooms"
    )
    name = models.CharField(_("name"), max_length=60, validators=[no_hidden_characters])
    # A teaching assistant, a replacement: they see and run the class as its teacher does.
    co_teachers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="co_taught_classrooms",
        verbose_name=_("co-teachers"),
    )
    school_year = models.CharField(_("school year"), max_length=9, default=current_school_year)
    year_group = models.PositiveSmallIntegerField(
        _("year group"), choices=YearGroup.choices, null=True, blank=True
    )
    code = models.CharField(_("class code"), max_length=8, unique=True, default=new_class_code)
    uses_picture_passwords = models.BooleanField(
        _("pupils tap a picture password"),
        default=True,
        help_text=_("Without it, tapping one's name is enough: fine for the youngest classes."),
    )
    pupils_practise_alone = models.BooleanField(
        _("pupils may practise alone against the computer"),
        default=True,
        help_text=_(
            "When no game is under way, a pupil's home page proposes a game for their next"
            " skill (“Let's practise ×!”)."
        ),
    )
    # Bumped to sign every pupil of the class out at once (their sessions carry the old value).
    sign_in_epoch = models.PositiveIntegerField(default=0, editable=False)
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClassroomQuerySet.as_manager()

    class Meta:
        verbose_name = _("class")
        verbose_name_plural = _("classes")
        ordering = ["-school_year", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.school_year})"

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    def reset_code(self) -> None:
        self.code = new_class_code()
        while Classroom.objects.filter(code=self.code).exclude(pk=self.pk).exists():
            self.code = new_class_code()
        self.save(update_fields=["code"])

    def sign_out_everyone(self) -> None:
        Classroom.objects.filter(pk=self.pk).update(sign_in_epoch=models.F("sign_in_epoch") + 1)
        self.pupils.sign_out()
        self.refresh_from_db(fields=["sign_in_epoch"])


class PupilQuerySet(models.QuerySet):
    def with_locked_devices(self) -> PupilQuerySet:
        """Each pupil with ``locked_devices``: how many devices are locked out
        of their sign-in now (after wrong picture passwords)."""
        return self.annotate(
            locked_devices=models.Count(
                "wrong_pictures", filter=models.Q(wrong_pictures__locked_until__gt=timezone.now())
            )
        )

    def sign_out(self) -> None:
        """End these pupils' sign-ins everywhere they were handed something:
        their generation moves on, and games refuses the table tokens of the
        old one (classroom.signals)."""
        self.update(signed_in_at=None, sign_in_generation=models.F("sign_in_generation") + 1)
        generations = dict(self.values_list("pk", "sign_in_generation"))
        if generations:
            # The sign-in rows kept for get_pupil carry the old generation.
            forget(generations)
            # After the commit: a mark for a generation that was rolled back
            # would refuse the pupil's good tokens.
            transaction.on_commit(
                lambda: pupils_signed_out.send(sender=Pupil, generations=generations)
            )


class Pupil(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="pupils")
    first_name = models.CharField(_("first name"), max_length=30)
    initial = models.CharField(_("initial"), max_length=1, blank=True)
    avatar = models.CharField(
        _("avatar"), max_length=20, choices=[(k, v) for k, v in AVATARS.items()]
    )
    # Comma-separated keys of PASSWORD_PICTURES, in tapping order. Not a secret
    # from the teacher: it is printed on the pupil's sign-in card.
    picture_password = models.CharField(_("picture password"), max_length=40)
    # Tells pupils of one name apart ("Léa M. (2)"), and is printed on their
    # card: kept when a namesake leaves, so nobody's number changes under them.
    namesake = models.PositiveSmallIntegerField(default=1, editable=False)
    signed_in_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set when the pupil leaves the school; the school's retention setting
    # (school.School.leavers_kept_days) counts from here.
    left_at = models.DateTimeField(_("left the school"), null=True, blank=True)
    # Moves on at each sign-out; the table tokens a sign-in hands out carry it,
    # so a token of an earlier sign-in reads nothing (games.poll_tokens).
    sign_in_generation = models.PositiveIntegerField(default=0, editable=False)
    failed_sign_ins = models.PositiveSmallIntegerField(default=0, editable=False)
    locked_until = models.DateTimeField(null=True, blank=True, editable=False)
    # The pupil's locks (after wrong pictures from every device together) since
    # the teacher last unlocked them: each lasts twice the one before, and the
    # last held until the teacher unlocks (``sign_in_held``). A lock of a fixed
    # ten minutes let one machine renewing its device cookie try every one of
    # the 1,320 passwords in 11 hours.
    sign_in_locks = models.PositiveSmallIntegerField(default=0, editable=False)
    sign_in_held = models.BooleanField(default=False, editable=False)
    # Wrong picture passwords since the teacher last unlocked the pupil: what
    # the class page tells the teacher once someone's guesses locked the pupil.
    wrong_sign_ins = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PupilQuerySet.as_manager()

    class Meta:
        verbose_name = _("pupil")
        verbose_name_plural = _("pupils")
        ordering = ["first_name", "initial", "pk"]

    def __str__(self) -> str:
        return self.short_name

    @property
    def short_name(self) -> str:
        return f"{self.first_name} {self.initial}." if self.initial else self.first_name

    @property
    def password_pictures(self) -> list[str]:
        return [key for key in self.picture_password.split(",") if key in PASSWORD_PICTURES]

    @property
    def is_locked(self) -> bool:
        return self.sign_in_held or (
            self.locked_until is not None and self.locked_until > timezone.now()
        )

    @property
    def was_tried(self) -> bool:
        """Someone's wrong pictures locked this pupil since the teacher last unlocked them."""
        return self.sign_in_locks > 0

    def claim_sign_in_try(self, device: str) -> bool:
        """Count one picture-password guess from this device before it is
        checked; False while the pupil or this device is locked out.

        Counted under the pupil's row lock, and before the check: parallel tries
        each read the same count otherwise, and 40 of them checked 21 guesses
        against a limit of 5. The device (classroom.devices) is locked out after
        a few wrong guesses, not the pupil: a classmate with the class code
        cannot keep a pupil out. Only many wrong guesses from many devices (a
        script renewing its device cookie) lock the pupil everywhere, for
        longer each time, then until the teacher unlocks them."""
        limits = settings.NUMBO
        now = timezone.now()
        lock_for = timedelta(minutes=limits["PICTURE_PASSWORD_LOCK_MINUTES"])
        with transaction.atomic():
            row = (
                Pupil.objects.select_for_update()
                .only("failed_sign_ins", "locked_until", "sign_in_locks", "sign_in_held")
                .get(pk=self.pk)
            )
            self.failed_sign_ins, self.locked_until = row.failed_sign_ins, row.locked_until
            self.sign_in_locks, self.sign_in_held = row.sign_in_locks, row.sign_in_held
            if self.is_locked:
                return False
            # A device's address is personal data: kept a day at most.
            WrongPictures.objects.filter(
                pupil_id=self.pk, updated_at__lt=now - timedelta(days=1)
            ).delete()
            guesses, _new = WrongPictures.objects.get_or_create(
                pupil_id=self.pk, device=WrongPictures.device_of(device)
            )
            if guesses.locked_until is not None and guesses.locked_until > now:
                return False
            guesses.wrong += 1
            if guesses.wrong >= limits["PICTURE_PASSWORD_TRIES_PER_DEVICE"]:
                guesses.wrong, guesses.locked_until = 0, now + lock_for
            guesses.save(update_fields=["wrong", "locked_until", "updated_at"])
            tries, locked_until = row.failed_sign_ins + 1, None
            locks, held = row.sign_in_locks, False
            if tries >= limits["PICTURE_PASSWORD_TRIES_PER_PUPIL"]:
                tries, locks = 0, locks + 1
                if locks >= limits["PICTURE_PASSWORD_LOCKS_BEFORE_HOLD"]:
                    held = True
                else:
                    locked_until = now + lock_for * 2 ** (locks - 1)
            Pupil.objects.filter(pk=self.pk).update(
                failed_sign_ins=tries,
                locked_until=locked_until,
                sign_in_locks=locks,
                sign_in_held=held,
                wrong_sign_ins=models.F("wrong_sign_ins") + 1,
            )
        self.failed_sign_ins, self.locked_until = tries, locked_until
        self.sign_in_locks, self.sign_in_held = locks, held
        return True

    def is_locked_for(self, device: str) -> bool:
        """Locked out everywhere, or on this device."""
        return self.is_locked or self.wrong_pictures.filter(
            device=WrongPictures.device_of(device), locked_until__gt=timezone.now()
        ).exists()

    def signed_in_from(self, device: str) -> None:
        """The right pictures: this device's wrong guesses are forgotten, and the
        try claim_sign_in_try counted. The pupil's locks are not: only the
        teacher, who sees them, ends their growth."""
        self.wrong_pictures.filter(device=WrongPictures.device_of(device)).delete()
        Pupil.objects.filter(pk=self.pk).update(
            failed_sign_ins=0,
            wrong_sign_ins=Greatest(models.F("wrong_sign_ins") - 1, 0),
        )
        self.failed_sign_ins = 0

    def unlock(self) -> None:
        """The teacher's unlock: the pupil and every device locked out of them,
        and the growth of the pupil's locks starts again."""
        self.wrong_pictures.all().delete()
        self.failed_sign_ins = self.sign_in_locks = self.wrong_sign_ins = 0
        self.locked_until = None
        self.sign_in_held = False
        self.save(
            update_fields=[
                "failed_sign_ins", "locked_until", "sign_in_locks", "sign_in_held",
                "wrong_sign_ins",
            ]
        )


class WrongPictures(models.Model):
    """Wrong picture passwords for one pupil from one device (classroom.devices),
    and until when that device is locked out of the pupil's sign-in."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="wrong_pictures")
    device = models.CharField(max_length=200)
    wrong = models.PositiveSmallIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("wrong picture passwords")
        verbose_name_plural = _("wrong picture passwords")
        constraints = [
            models.UniqueConstraint(fields=["pupil", "device"], name="one_count_per_pupil_device")
        ]

    def __str__(self) -> str:
        return f"{self.pupil_id} · {self.device}: {self.wrong}"

    @staticmethod
    def device_of(device: str) -> str:
        # A forwarded address is whatever the proxy passed on: bound its length.
        return device[:200]


class Attempt(models.Model):
    """One calculation step a pupil typed: the evidence every report is built on."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="attempts")
    session = models.ForeignKey(
        "games.GameSession", on_delete=models.CASCADE, related_name="attempts"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="attempts")
    game = models.CharField(max_length=30)
    skill = models.CharField(max_length=20, db_index=True)
    # Numbers may be fractions ("3/4"), so operands and answers are kept as text.
    operands = models.JSONField(default=list)
    expected = models.CharField(max_length=40)
    given = models.CharField(max_length=40)
    correct = models.BooleanField()
    first_try = models.BooleanField(default=True)
    response_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        indexes = [models.Index(fields=["pupil", "skill", "created_at"])]

    def __str__(self) -> str:
        return f"{self.skill} {self.operands} = {self.given} ({'✓' if self.correct else '✗'})"


class Opportunity(models.Model):
    """A roll of a pupil's turn, and which operations could have made a free
    square: a pupil who never divides when division would have worked shows here."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="opportunities")
    session = models.ForeignKey(
        "games.GameSession", on_delete=models.CASCADE, related_name="opportunities"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="opportunities")
    game = models.CharField(max_length=30)
    roll = models.JSONField(default=list)
    could = models.JSONField(default=dict)  # {"add": true, "div": false, ...}
    used = models.JSONField(default=list)  # skills of the steps the pupil typed, right or wrong
    # The teacher ended the game during this turn: unless the pupil had typed
    # a step, it is no chance they let go by.
    cut_off = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("opportunity")
        verbose_name_plural = _("opportunities")

    def __str__(self) -> str:
        return f"{self.roll} could {self.could}"


class PupilSkill(models.Model):
    """A pupil's mastery of one skill over all their attempts: the snapshot the
    report pages read, rewritten by the Celery tasks (classroom.reports.services)
    from ``learning.tally`` summaries."""

    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="skills")
    skill = models.CharField(max_length=20)
    attempts = models.PositiveIntegerField(default=0)
    first_tries = models.PositiveIntegerField(default=0)
    retries = models.PositiveIntegerField(default=0)
    correct_first = models.PositiveIntegerField(default=0)
    accuracy = models.FloatField(null=True, blank=True)
    last10_accuracy = models.FloatField(null=True, blank=True)
    last10_right = models.PositiveSmallIntegerField(default=0)
    last10_total = models.PositiveSmallIntegerField(default=0)
    median_ms = models.FloatField(null=True, blank=True)
    estimate = models.FloatField(default=0.0)
    status = models.CharField(max_length=20, default="not_started")
    # What the status rules read beside the last ten (learning.verdicts).
    games = models.PositiveIntegerField(default=0)
    help_right = models.PositiveSmallIntegerField(default=0)
    help_total = models.PositiveSmallIntegerField(default=0)
    # Of an operation: turns where it would have helped, and those where the
    # pupil typed a step with it (learning.opportunities): the class report
    # says who avoids it.
    chances = models.PositiveIntegerField(default=0)
    chances_taken = models.PositiveIntegerField(default=0)
    # In English, for exports and the admin; pages explain() again in the reader's language.
    sentence = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("pupil skill")
        verbose_name_plural = _("pupil skills")
        ordering = ["pupil", "skill"]
        constraints = [
            models.UniqueConstraint(fields=["pupil", "skill"], name="one_snapshot_per_pupil_skill")
        ]

    def __str__(self) -> str:
        return f"{self.pupil_id} · {self.skill}: {self.status}"


class ReportJob(models.Model):
    """One report job, the truth about it (not Celery's result store).

    ``cursor`` is the last pupil id finished: a worker killed mid-job leaves a
    job that the redelivered task (acks_late) or the next request resumes from
    there. ``key`` says what the job computes; at most one queued or running
    job per key, so asking twice returns the job already under way.
    """

    class Kind(models.TextChoices):
        CLASS_MASTERY = "class_mastery", _("class report")
        EXPORT = "export", _("export")
        NIGHTLY = "nightly", _("nightly recompute")
        # The school report (school.report): its figures are kept in ``result``.
        SCHOOL = "school", _("school report")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("working")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="report_jobs",
    )
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, null=True, blank=True, related_name="report_jobs"
    )
    # A school report's school: any of its administrators and maths leads
    # reads the last one built, whoever asked for it.
    school = models.ForeignKey(
        "school.School", on_delete=models.CASCADE, null=True, blank=True, related_name="report_jobs"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    cursor = models.BigIntegerField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)  # runs started, retries included
    # Exports are kept in the database, not on a disk: web and worker
    # processes scale out on different machines and all see the same file.
    result = models.BinaryField(null=True, blank=True)
    result_name = models.CharField(max_length=120, blank=True)
    result_type = models.CharField(max_length=100, blank=True)
    error = models.TextField(blank=True)
    celery_task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("report job")
        verbose_name_plural = _("report jobs")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["key"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_active_job_per_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} · {self.status} {self.progress}%"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


# --------------------------------------------------------------------------- kept sign-in rows


@receiver(post_save, sender=Pupil, dispatch_uid="pupil-auth-pupil-saved")
@receiver(post_delete, sender=Pupil, dispatch_uid="pupil-auth-pupil-deleted")
def _forget_pupil(sender, instance: Pupil, **kwargs) -> None:
    """A pupil renamed or erased: the rows get_pupil keeps of them go
    (classroom.pupil_auth). An erased class sends this for each of its pupils."""
    forget([instance.pk])


@receiver(post_save, sender=Classroom, dispatch_uid="pupil-auth-class-saved")
def _forget_class(sender, instance: Classroom, created: bool, **kwargs) -> None:
    """A class renamed, archived or given a new code: every pupil's kept rows
    carry the old class."""
    if created:
        return
    forget(Pupil.objects.filter(classroom_id=instance.pk).values_list("pk", flat=True))
