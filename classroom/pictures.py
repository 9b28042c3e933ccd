"""The picture sets: avatars (who a pupil is) and password pictures (what they tap).

Both are drawn in static/img/*.svg as <symbol>s whose ids are the keys below;
the keys are stored, the labels are what a screen reader says.
"""

import secrets

from django.utils.translation import gettext_lazy as _

AVATARS: dict[str, str] = {
    "cat": _("cat"),
    "dog": _("dog"),
    "fox": _("fox"),
    "owl": _("owl"),
    "frog": _("frog"),
    "bear": _("bear"),
    "rabbit": _("rabbit"),
    "pig": _("pig"),
    "mouse": _("mouse"),
    "lion": _("lion"),
    "panda": _("panda"),
    "chick": _("chick"),
    "koala": _("koala"),
    "tiger": _("tiger"),
    "penguin": _("penguin"),
    "monkey": _("monkey"),
}

PASSWORD_PICTURES: dict[str, str] = {
    "sun": _("sun"),
    "moon": _("moon"),
    "star": _("star"),
    "heart": _("heart"),
    "tree": _("tree"),
    "fish": _("fish"),
    "house": _("house"),
    "car": _("car"),
    "apple": _("apple"),
    "flower": _("flower"),
    "boat": _("boat"),
    "cloud": _("cloud"),
}

PASSWORD_LENGTH = 3


def random_picture_password() -> str:
    """Three different pictures out of twelve, in the order they are tapped."""
    keys = list(PASSWORD_PICTURES)
    chosen = []
    while len(chosen) < PASSWORD_LENGTH:
        key = secrets.choice(keys)
        if key not in chosen:
            chosen.append(key)
    return ",".join(chosen)


def pick_avatar(taken: set[str]) -> str:
    """A free avatar if there is one, so names that look alike still look different."""
    free = [key for key in AVATARS if key not in taken]
    return secrets.choice(free or list(AVATARS))
