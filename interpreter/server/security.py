"""Invitations, seat tokens, the deal's commitment, and what a seat may be shown.

A match is created with one invitation per human seat: a random code that whoever holds it
exchanges, once, for that seat's token. Codes and tokens are random secrets; the server
keeps only their SHA-256, so the database cannot be used to act for a seat. The seed is the
server's, committed at creation as SHA-256("<seed>:<salt>") and revealed with its salt in the
replay log, so players can check that the deal was fixed before anyone joined. Everything a seat is sent is built from
`State.observation(seat)` and `State.visible_events(seat)`, which hide other seats' cards
(partners' included, unless the spec's views show them), the faces of covered cards, and the
random generator that would predict the deal. The seed is shown only in the replay log of a
finished match.
"""
from __future__ import annotations

import hashlib
import secrets

from interpreter.server.errors import ApiError

TOKEN_BYTES = 24          # 192 random bits: unguessable
MATCH_ID_BYTES = 16       # ids need not be secret, but are not guessable either


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_match_id() -> str:
    return secrets.token_urlsafe(MATCH_ID_BYTES)


def new_code() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """The published hash that binds a match to its seed before the first card is seen."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def token_hash(token: str) -> str:
    """Tokens and codes are looked up by their hash: the store never holds a usable one."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer(header: str | None) -> str:
    """The token of an `Authorization: Bearer <token>` header."""
    if not header:
        raise ApiError(401, "missing_token", "send the seat's token as 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "missing_token", "the Authorization header must be 'Bearer <token>'")
    return token.strip()
