"""Class codes that a child can copy from the board without confusion."""

import secrets

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B: the pairs children (and fonts) mix up.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


def new_class_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_class_code(typed: str) -> str:
    """What a pupil typed, made comparable: case, spaces and dashes do not matter."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())[:20]
