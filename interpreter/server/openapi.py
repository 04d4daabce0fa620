"""The OpenAPI 3.1 description of the HTTP API, served at /api/openapi.json.

Written by hand beside the routes (app.py) so it can say what the code cannot: which
token to send, what a seat is shown, and why each error happens. A test checks that every
route is described and every described path is routed.
"""
from __future__ import annotations

from typing import Any

_TOKEN = [{"seatToken": []}]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    why = {400: "malformed JSON, an unknown field, a wrong type, an unknown spec, option or bot",
           401: "no token, or a token that is no seat's",
           403: "the token is a seat of another match",
           404: "no match has this id",
           409: "an illegal or out-of-turn action, a stale version, or the match is (not) over",
           413: "the body is too large"}
    return {str(s): _json(_ref("Error"), why[s]) for s in statuses}


_MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["status", "code", "message"], "properties": {
            "status": {"type": "integer"}, "code": {"type": "string"}, "message": {"type": "string"},
            "reason": {"type": "string", "description": "why the rules refuse an action"}}}},
    },
    "Spec": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "title": {"type": "string"},
                       "options": {"type": "array", "items": {"type": "object", "properties": {
                           "name": {"type": "string"}, "values": {"type": "array"}, "default": {},
                           "kind": {"type": "string", "enum": ["table", "interpretation"]},
                           "doc": {"type": ["string", "null"]}}}}},
    },
    "NewMatch": {
        "type": "object", "required": ["spec"], "additionalProperties": False,
        "properties": {
            "spec": {"type": "string", "description": "a name from GET /api/specs"},
            "options": {"type": "object", "description": "table options; omitted ones take their default"},
            "seed": {"type": "integer", "minimum": 0, "description": "the deal's seed; random when omitted"},
            "bots": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "seat number → bot name; the other seats are humans and get tokens"},
        },
    },
    "Seat": {"type": "object", "properties": {"seat": {"type": "integer"}, "team": {"type": "integer"},
                                              "bot": {"type": ["string", "null"]}}},
    "Game": {
        "type": "object",
        "description": "what a board needs to draw any variant, read from the compiled spec",
        "properties": {"spec": {"type": "string"}, "title": {"type": "string"}, "options": {"type": "object"},
                       "players": {"type": "integer"}, "teams": {"type": "integer"},
                       "team_of": {"type": "array", "items": {"type": "integer"}}, "target": {"type": "integer"},
                       "hand_size": {"type": "integer"}, "deck": {"type": "object"},
                       "turns_card": {"type": "boolean"},
                       "ladder": {"type": "array", "items": {"type": "string"}},
                       "contests": {"type": "array", "items": {"type": "object"}},
                       "answers": {"type": "array", "items": {"type": "string"}},
                       "actions": {"type": "array", "items": {"type": "string"},
                                   "description": "every action; its index is its stable integer id"}},
    },
    "MatchInfo": {
        "type": "object",
        "properties": {"match": {"type": "string"}, "seat": {"type": ["integer", "null"]},
                       "version": {"type": "integer", "description": "actions applied so far"},
                       "seats": {"type": "array", "items": _ref("Seat")}, "over": {"type": "boolean"},
                       "game": _ref("Game"),
                       "tokens": {"type": "object", "additionalProperties": {"type": "string"},
                                  "description": "only when created: seat number → that seat's secret token"}},
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
        "legal": {"type": "array", "items": {"type": "string"}}, "ids": {"type": "array", "items": {"type": "integer"}}}},
    "Action": {
        "type": "object", "required": ["action"], "additionalProperties": False,
        "properties": {"action": {"oneOf": [{"type": "string"}, {"type": "integer"}],
                                  "description": "an action string ('play <card>', 'accept', a call) or its id"},
                       "version": {"type": "integer", "description": "refuse unless the match is at this version"}},
    },
    "Log": {"type": "object", "properties": {
        "match": {"type": "string"}, "spec": {"type": "string"}, "options": {"type": "object"},
        "seed": {"type": "integer"}, "seats": {"type": "array", "items": _ref("Seat")},
        "actions": {"type": "array", "items": {"type": "object", "properties": {
            "seat": {"type": "integer"}, "action": {"type": "string"}}}},
        "score": {"type": "array", "items": {"type": "integer"}}, "winner": {"type": ["integer", "null"]},
        "events": {"type": "array", "items": {"type": "object"}}}},
}


def document() -> dict[str, Any]:
    auth_get = {"security": _TOKEN, "parameters": [_MATCH_ID]}
    return {
        "openapi": "3.1.0",
        "info": {"title": "match server", "version": "1",
                 "description": "Run any spec's match and see it only as one seat may. Every match endpoint takes "
                                "a seat's token (`Authorization: Bearer <token>`). The server deals each next "
                                "hand at once when a hand ends; bots act server-side before a request returns. "
                                "The event stream is a WebSocket at /api/matches/{match_id}/events: send "
                                "{\"token\": ..., \"since\": N} first, then receive {\"seq\", \"events\", \"view\"} "
                                "after every change, until the match is over."},
        "components": {
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                              "description": "the secret token of one seat, given at creation"}},
            "schemas": _SCHEMAS,
        },
        "paths": {
            "/api/specs": {"get": {
                "operationId": "listSpecs", "summary": "the specs offered, their options, and the bots",
                "responses": {"200": _json({"type": "object", "properties": {
                    "specs": {"type": "array", "items": _ref("Spec")},
                    "bots": {"type": "array", "items": {"type": "string"}}}}, "specs and bots")}}},
            "/api/openapi.json": {"get": {
                "operationId": "openapi", "summary": "this document",
                "responses": {"200": {"description": "the OpenAPI document"}}}},
            "/api/matches": {"post": {
                "operationId": "createMatch", "summary": "create a match; one token per human seat",
                "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("NewMatch")}}},
                "responses": {"201": _json(_ref("MatchInfo"), "the match, its game and the seats' tokens"),
                              **_errors(400, 413)}}},
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
                    **_errors(400, 401, 403, 404, 409, 413)}}},
            "/api/matches/{match_id}/log": {"get": {
                "operationId": "getLog", "summary": "the full replay log, once the match is over", **auth_get,
                "responses": {"200": _json(_ref("Log"), "seed, actions and every event"),
                              **_errors(401, 403, 404, 409)}}},
        },
    }
