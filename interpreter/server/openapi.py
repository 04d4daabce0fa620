"""The OpenAPI 3.1 description of the HTTP API, served at /api/openapi.json.

Written by hand beside the routes (app.py) so it can say what the code cannot: which
token to send, what a seat is shown, and why each error happens. A test checks that every
route is described and every described path is routed.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from rulespec.rulebook_i18n import LANGUAGES

_TOKEN: list[dict[str, list[str]]] = [{"seatToken": []}]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    why = {400: "malformed JSON, too deep, not Unicode, an unknown field, a wrong type, an unknown spec, "
                "option, bot or language, or a Host this server does not answer to",
           401: "no token, or a token that is no seat's",
           403: "the token is a seat of another match; a seed on a server that chooses seeds; a code that is "
                "no invitation of this match",
           404: "no match has this id",
           409: "an illegal or out-of-turn action, a stale version, the match is (not) over, the seat is taken",
           413: "the body is too large",
           415: "the body is not sent as application/json",
           429: "too many requests, creations, claims or signals from this client or seat; see Retry-After"}
    out = {str(s): _json(_ref("Error"), why[s]) for s in (*statuses, 400, 429)}
    out["429"]["headers"] = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    return out


_MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["status", "code", "message"], "properties": {
            "status": {"type": "integer"}, "code": {"type": "string"}, "message": {"type": "string"},
            "reason": {"type": "string", "description": "why the rules refuse an action: the failing fact and the "
                                                        "rule's sentence from the rulebook"},
            "detail": {"type": "string", "description": "with illegal_action: the refusing rule's whole condition "
                                                        "in words and its DSL text, for a designer; empty when "
                                                        "there is no more to say"},
            "retry_after": {"type": "integer", "description": "with 429: seconds to wait"}}}},
    },
    "Spec": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "title": {"type": "string"},
                       "options": {"type": "array", "items": {"type": "object", "properties": {
                           "name": {"type": "string"}, "values": {"type": "array"}, "default": {},
                           "kind": {"type": "string", "enum": ["table", "interpretation"]},
                           "doc": {"type": ["string", "null"], "description": "as the spec writes it first"},
                           "label": {"type": "string", "description": "the option's name in the asked language"},
                           "words": {"type": "array", "items": {"type": "string"},
                                     "description": "each value in words, in the asked language"},
                           "about": {"type": ["object", "null"], "description": "the doc in the asked language, "
                                     "else in the one it is written in: text and lang", "properties": {
                                         "text": {"type": "string"}, "lang": {"type": "string"}}}}}}},
    },
    "NewMatch": {
        "type": "object", "required": ["spec"], "additionalProperties": False,
        "properties": {
            "spec": {"type": "string", "description": "a name from GET /api/specs"},
            "options": {"type": "object", "description": "table options; omitted ones take their default"},
            "seed": {"oneOf": [{"type": "integer", "minimum": 0, "maximum": (1 << 62) - 1},
                               {"type": "string", "pattern": "^(0|[1-9][0-9]{0,18})$"}],
                     "description": "the deal's seed, a whole number below 2**62 or its decimal digits (a "
                                    "browser's numbers lose it past 2**53), only on a server started with "
                                    "--client-seeds (tests, replays); otherwise 403 seed_not_allowed, and "
                                    "the server chooses"},
            "bots": {"type": "object", "additionalProperties": {"type": "string"},
                     "propertyNames": {"pattern": "^(0|[1-9][0-9]{0,3})$"},
                     "description": "seat number → bot name; the other seats are open, each with an invitation"},
        },
    },
    "Seat": {"type": "object", "properties": {"seat": {"type": "integer"}, "team": {"type": "integer"},
                                              "bot": {"type": ["string", "null"]},
                                              "claimed": {"type": "boolean",
                                                          "description": "a bot's, or a player's who claimed it"}}},
    "Invitation": {"type": "object", "required": ["code", "link"], "properties": {
        "code": {"type": "string", "description": "secret; exchanged once for the seat's token"},
        "link": {"type": "string", "description": "the web board's page that claims this seat"}}},
    "Claim": {"type": "object", "required": ["code"], "additionalProperties": False,
              "properties": {"code": {"type": "string", "description": "an invitation's code"}}},
    "SeatToken": {"type": "object", "required": ["match", "seat", "token"], "properties": {
        "match": {"type": "string"}, "seat": {"type": "integer"},
        "token": {"type": "string", "description": "this seat's secret token, given this once"},
        "commitment": {"type": "string", "description": "the deal's commitment, as at creation"}}},
    "Game": {
        "type": "object",
        "description": "what a board needs to draw any variant, read from the compiled spec",
        "properties": {"spec": {"type": "string"}, "title": {"type": "string"}, "options": {"type": "object"},
                       "players": {"type": "integer"}, "teams": {"type": "integer"},
                       "team_of": {"type": "array", "items": {"type": "integer"}}, "target": {"type": "integer"},
                       "hand_size": {"type": "integer"}, "deck": {"type": "object"},
                       "turns_card": {"type": "boolean"},
                       "ladder": {"type": "array", "items": {"type": "string"}},
                       "raise_by": {"type": "string", "enum": ["accepting_team", "any"],
                                    "description": "after an accept, who may raise the stake"},
                       "contests": {"type": "array", "items": {"type": "object"}},
                       "answers": {"type": "array", "items": {"type": "string"}},
                       "actions": {"type": "array", "items": {"type": "string"},
                                   "description": "every action; its index is its stable integer id"},
                       "worths": {"type": "object", "additionalProperties": {"type": "integer"},
                                  "description": "what each stake call makes the hand worth, where a number"},
                       "order": {"type": "object", "description": "turned card (\"\" for none) to each card's "
                                 "place in the trick order, 1 the highest"},
                       "signals": {"type": ["object", "null"], "description": "the spec's free signals: verb, "
                                   "names, and to whom they are shown (table or partners)"},
                       "display": {"type": "object", "description": "the spec's display labels: language to "
                                   "calls, values and ranks (and, for the rulebook, options, choices, suits "
                                   "and hands), each a name to its label"}},
    },
    "MatchInfo": {
        "type": "object",
        "properties": {"match": {"type": "string"}, "seat": {"type": ["integer", "null"]},
                       "version": {"type": "integer", "description": "actions applied so far"},
                       "seats": {"type": "array", "items": _ref("Seat")}, "over": {"type": "boolean"},
                       "commitment": {"type": "string", "description": "SHA-256 of \"<seed>:<salt>\", hex: "
                                                                       "the log reveals both once the match is over"},
                       "game": _ref("Game"),
                       "invitations": {"type": "object", "additionalProperties": _ref("Invitation"),
                                       "description": "only when created: seat number → that open seat's "
                                                      "invitation"}},
    },
    "View": {
        "type": "object",
        "properties": {"match": {"type": "string"}, "seat": {"type": "integer"}, "version": {"type": "integer"},
                       "events": {"type": "integer", "description": "how many events this seat has been shown"},
                       "seats": {"type": "array", "items": _ref("Seat")},
                       "observation": {"type": "object",
                                       "description": "State.observation(seat): own hand, table, tricks, score, "
                                                      "pending call, count, legal actions; nothing hidden"}},
    },
    "Legal": {"type": "object", "properties": {
        "seat": {"type": "integer"}, "to_act": {"type": ["integer", "null"]}, "version": {"type": "integer"},
        "legal": {"type": "array", "items": {"type": "string"}},
        "ids": {"type": "array", "items": {"type": "integer"}}}},
    "Action": {
        "type": "object", "required": ["action"], "additionalProperties": False,
        "properties": {"action": {"oneOf": [{"type": "string"}, {"type": "integer"}],
                                  "description": "an action string ('play <card>', 'accept', a call) or its id"},
                       "version": {"type": "integer", "description": "refuse unless the match is at this version"}},
    },
    "Log": {"type": "object", "properties": {
        "match": {"type": "string"}, "spec": {"type": "string"}, "options": {"type": "object"},
        "seed": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$",
                 "description": "the seed's decimal digits: a 62-bit number, past what JavaScript reads exactly"},
        "salt": {"type": "string"}, "commitment": {"type": "string"},
        "seats": {"type": "array", "items": _ref("Seat")},
        "actions": {"type": "array", "items": {"type": "object", "properties": {
            "seat": {"type": "integer"}, "action": {"type": "string"}}}},
        "score": {"type": "array", "items": {"type": "integer"}}, "winner": {"type": ["integer", "null"]},
        "events": {"type": "array", "items": {"type": "object"}}}},
}


def document(specs: Sequence[str] = (), bots: Sequence[str] = ()) -> dict[str, Any]:
    """The document; with the server's spec and bot names, creation's body lists them."""
    auth_get = {"security": _TOKEN, "parameters": [_MATCH_ID]}
    schemas = copy.deepcopy(_SCHEMAS)
    fields = schemas["NewMatch"]["properties"]
    if specs:
        fields["spec"]["enum"] = list(specs)
    if bots:
        fields["bots"]["additionalProperties"]["enum"] = list(bots)
    return {
        "openapi": "3.1.0",
        "info": {"title": "match server", "version": "1",
                 "description": "Run any spec's match and see it only as one seat may. A match is created with "
                                "an invitation per open seat; each player claims a seat with its code and gets "
                                "that seat's token. Every other match endpoint takes a seat's token "
                                "(`Authorization: Bearer <token>`). Bodies are application/json. The server "
                                "deals each next "
                                "hand at once when a hand ends; bots act server-side before a request returns. "
                                "The event stream is a WebSocket at /api/matches/{match_id}/events: send "
                                "{\"token\": ..., \"since\": N} first, then receive {\"seq\", \"events\", \"view\"} "
                                "after every change it can see, until the match is over; refusals close it "
                                "with 4000 + the HTTP status and the error code as the reason."},
        "components": {
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                              "description": "the secret token of one seat, given at creation"}},
            "schemas": schemas,
        },
        "paths": {
            "/api/specs": {"get": {
                "operationId": "listSpecs", "summary": "the specs offered, their options, and the bots",
                "parameters": [{"name": "lang", "in": "query", "required": False,
                                "schema": {"type": "string", "enum": list(LANGUAGES), "default": "en"},
                                "description": "the language of the options' words and docs (else 400 "
                                               "bad_language)"}],
                "responses": {"200": _json({"type": "object", "properties": {
                    "specs": {"type": "array", "items": _ref("Spec")},
                    "bots": {"type": "array", "items": {"type": "string"}},
                    "client_seeds": {"type": "boolean", "description": "whether creation takes a seed"}}},
                    "specs and bots"), **_errors()}}},
            "/api/openapi.json": {"get": {
                "operationId": "openapi", "summary": "this document",
                "responses": {"200": {"description": "the OpenAPI document"}, **_errors()}}},
            "/api/matches": {"post": {
                "operationId": "createMatch", "summary": "create a match; one invitation per open seat",
                "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("NewMatch")}}},
                "responses": {"201": _json(_ref("MatchInfo"), "the match, its game, its commitment and invitations"),
                              **_errors(403, 413, 415)}}},
            "/api/matches/{match_id}/claim": {"post": {
                "operationId": "claimSeat", "summary": "exchange an invitation's code for its seat's token, once",
                "parameters": [_MATCH_ID],
                "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Claim")}}},
                "responses": {"201": _json(_ref("SeatToken"), "the seat and its token"),
                              **_errors(403, 404, 409, 413, 415)}}},
            "/api/matches/{match_id}": {"get": {
                "operationId": "getMatch", "summary": "the match's seats and its game's description", **auth_get,
                "responses": {"200": _json(_ref("MatchInfo"), "the match"), **_errors(401, 403, 404)}}},
            "/api/matches/{match_id}/view": {"get": {
                "operationId": "getView", "summary": "the match as the token's seat sees it", **auth_get,
                "responses": {"200": _json(_ref("View"), "the seat's view"), **_errors(401, 403, 404)}}},
            "/api/matches/{match_id}/legal": {"get": {
                "operationId": "getLegal", "summary": "the token's seat's legal actions now", **auth_get,
                "responses": {"200": _json(_ref("Legal"), "legal actions, as strings and ids"),
                              **_errors(401, 403, 404)}}},
            "/api/matches/{match_id}/actions": {"post": {
                "operationId": "submitAction", "summary": "act for the token's seat; bots answer at once",
                **auth_get,
                "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Action")}}},
                "responses": {"200": _json({"allOf": [_ref("View"), {"type": "object", "properties": {
                    "applied": {"type": "string"}}}]}, "the action applied; the seat's view after the bots"),
                    **_errors(401, 403, 404, 409, 413, 415)}}},
            "/api/matches/{match_id}/log": {"get": {
                "operationId": "getLog", "summary": "the full replay log, once the match is over", **auth_get,
                "responses": {"200": _json(_ref("Log"), "seed, actions and every event"),
                              **_errors(401, 403, 404, 409)}}},
        },
    }
