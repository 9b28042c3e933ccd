"""A table's poll token: the only key of the 2-second poll and the push stream.

A tablet polls with a signed token naming the table and the pupil (or teacher)
it was handed to, no session: reading the session was most of an unchanged
poll. A pupil's token also carries their sign-in generation
(``Pupil.sign_in_generation``), which moves on at each sign-out, so that
signing a pupil out (or the whole class) ends their tokens too.

Checking the generation must not cost the poll a query either. So each
sign-out leaves the pupil's new generation in the cache for as long as a token
lives (classroom.signals -> ``forget_sign_ins``), and a token of an earlier
generation is refused with one cache read. The database stays the truth: a
poll that renders the table checks the pupil row it reads anyway
(``matches``), so a cache that lost the mark still shows no table.

A teacher's token (a table watched from the teacher's pages) carries when it
was minted, and a sign-out or an account change (``teacher_out``) ends the
tokens minted before it, with the same one cache read.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache

from classroom import redis_store

from . import live
from .signed import SignedTokens

SALT = "numbo.table.poll"
MAX_AGE = 12 * 60 * 60

# A tablet sends the same token every 2 s: checking its signature again was
# a tenth of an unchanged poll. Trusted 300 s once verified, far below MAX_AGE.
TOKENS = SignedTokens(SALT, MAX_AGE, verified_for=300.0, kept=20_000)


def mint(table_id: int, pupil_id: int | None, teacher_id: int | None, generation: int = 0) -> str:
    """``generation``: the pupil's sign_in_generation now (0 for a teacher)."""
    data: dict[str, Any] = {"t": table_id, "p": pupil_id, "k": teacher_id}
    if pupil_id is not None:
        data["g"] = generation
    if teacher_id is not None:
        data["a"] = round(time.time(), 3)
    return TOKENS.dumps(data)


def read(token: str, table_id: int) -> dict[str, Any] | None:
    """What the token says (``t``, ``p``, ``k``, ``g``), or None when it is
    forged, old, for another table or of a pupil signed out since."""
    return read_with(token, table_id, [])[0]


def read_with(
    token: str, table_id: int, keys: list[str]
) -> tuple[dict[str, Any] | None, list[Any]]:
    """``read``, and the values at these cache keys (None when absent) read in
    the same round trip as the sign-out mark: the poll's table token with it."""
    data = TOKENS.load(token)
    if data is None or data.get("t") != table_id:
        return None, []
    pupil_id, teacher_id = data.get("p"), data.get("k")
    if pupil_id is not None:
        mark = [signed_out_key(pupil_id)]
    elif teacher_id is not None:
        mark = [teacher_out_key(teacher_id)]
    else:
        mark = []
    wanted = mark + keys
    if not wanted:
        return data, []
    client = live.redis_client()
    if client is not None:
        found = client.mget(wanted)
    else:
        got = cache.get_many(wanted)
        found = [got.get(k) for k in wanted]
    if mark:
        latest, found = found[0], found[1:]
        if ended(data, latest):
            return None, []
    return data, found


def generation_of(data: dict[str, Any]) -> int:
    # Tokens minted before generations existed carry none: the first one.
    generation = data.get("g", 0)
    return generation if isinstance(generation, int) else -1


def matches(data: dict[str, Any], pupil) -> bool:
    """The database's word: is the token of this pupil's current sign-in?

    A token newer than the row is of a sign-in the row (kept with the table's
    seats in the cache, games.seating) has not seen yet: the server signed
    it, so it is good. Refusing it would reload the tablet until the cache
    let go of the row."""
    return generation_of(data) >= pupil.sign_in_generation


def ended(data: dict[str, Any], latest: bytes | str | float | None) -> bool:
    """Whether the token's sign-in ended, ``latest`` being what was read at
    the pupil's ``signed_out_key`` or the teacher's ``teacher_out_key``
    (None: no sign-out for as long as tokens last)."""
    if latest is None:
        return False
    if data.get("p") is None:
        return float(latest) >= data.get("a", 0)
    return generation_of(data) < int(latest)


def teacher_out_key(teacher_id: Any) -> str:
    """When the teacher last signed out or changed their account."""
    return f"{redis_store.key_prefix()}:teacher-out:{teacher_id}"


def teacher_out(teacher_id: int) -> None:
    """The teacher's tokens minted before now end (their table pages' and,
    games.live_view, their live view's). Kept as long as a token lives."""
    now = repr(time.time())
    client = live.redis_client()
    if client is not None:
        client.set(teacher_out_key(teacher_id), now, ex=MAX_AGE)
    else:
        cache.set(teacher_out_key(teacher_id), float(now), MAX_AGE)


def signed_out_key(pupil_id: Any) -> str:
    """Where a pupil's latest sign-in generation is kept after a sign-out."""
    return f"{redis_store.key_prefix()}:signed-out:{pupil_id}"


def forget_sign_ins(sender=None, *, generations: dict[int, int], **kwargs) -> None:
    """Receiver of classroom.signals.pupils_signed_out: the tokens of these
    pupils' earlier generations end now. Kept as long as a token lives."""
    client = live.redis_client()
    if client is not None:
        with client.pipeline(transaction=False) as pipe:
            for pupil_id, generation in generations.items():
                pipe.set(signed_out_key(pupil_id), generation, ex=MAX_AGE)
            pipe.execute()
    else:
        cache.set_many({signed_out_key(pk): g for pk, g in generations.items()}, MAX_AGE)
