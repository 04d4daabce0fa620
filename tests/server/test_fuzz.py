"""Property-based fuzzing of the HTTP API from its own OpenAPI document (schemathesis):
bodies, paths, headers and queries, valid and invalid, generated from the document. Every
answer is a documented status (never a 5xx) and conforms to its documented schema, and no
generated request changes a match it was not allowed to change.

Schema-valid requests may still be refused (a bot on a seat the spec does not have, an
illegal action): the document cannot say which, so acceptance of valid data is not checked.

A second run aims every case at a real match with a real seat's token, so that the endpoints
behind authorisation are fuzzed too, not only their 401s.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import hypothesis
import pytest
import schemathesis
from schemathesis.specs.openapi.checks import ignored_auth, missing_required_header, positive_data_acceptance
from starlette.testclient import TestClient

from tests.server.helpers import STORES, TEST_SETTINGS, auth, create, fresh_store

from interpreter.server.app import create_app

# Each backend's app is made once for the module, with two matches: the fuzzing may read them
# from memory long after they were made, so they are kept there for the whole run.
FUZZ_SETTINGS = replace(TEST_SETTINGS, limits=replace(TEST_SETTINGS.limits, idle_match_seconds=1e9))
TARGET: dict[str, Any] = {"app": create_app(":memory:", settings=FUZZ_SETTINGS)}    # serves the schema below


@pytest.fixture(scope="module", params=STORES, autouse=True)
def target(request) -> Iterator[None]:
    """The app every generated request goes to, on one backend, and its two matches."""
    with fresh_store(request, request.param, ":memory:") as db:
        app = create_app(db, settings=FUZZ_SETTINGS)
        setup = TestClient(app)           # no lifespan: its end would close the store
        TARGET.update(app=app, match=create(setup, bots={"1": "heuristic"}, seed=5), other=create(setup, seed=6))
        try:
            yield
        finally:
            app.state.book.store.close()


async def _without_lifespan(scope, receive, send) -> None:
    """The app, whose store stays open: schemathesis starts and ends a lifespan per call."""
    if scope["type"] != "lifespan":
        await TARGET["app"](scope, receive, send)
        return
    while (await receive())["type"] != "lifespan.shutdown":
        await send({"type": "lifespan.startup.complete"})
    await send({"type": "lifespan.shutdown.complete"})


SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", _without_lifespan)


SETTINGS = hypothesis.settings(max_examples=60, deadline=None, suppress_health_check=list(hypothesis.HealthCheck))


def _check(case, *excluded) -> None:
    matches = TARGET["app"].state.book.matches
    before = matches[TARGET["other"]["match"]].state.to_json()
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance, *excluded])
    assert response.status_code < 500
    assert matches[TARGET["other"]["match"]].state.to_json() == before


@SCHEMA.parametrize()
@SETTINGS
def test_no_generated_request_gets_a_5xx_or_an_undocumented_answer(case) -> None:
    _check(case)


@SCHEMA.parametrize()
@SETTINGS
def test_generated_requests_on_a_real_seat_get_no_5xx_nor_an_undocumented_answer(case) -> None:
    if "match_id" in (case.path_parameters or {}):
        case.path_parameters["match_id"] = TARGET["match"]["match"]
        case.headers = {**(case.headers or {}), **auth(TARGET["match"]["tokens"]["0"])}
    _check(case, ignored_auth, missing_required_header)      # the token is put back on purpose
