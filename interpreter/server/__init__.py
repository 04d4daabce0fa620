"""The match server: any spec's matches over HTTP and WebSocket, each seat seeing only its own.

`interpreter.server.app.create_app(db, specs, settings)` builds the ASGI app; `truco serve`
runs it with uvicorn (the `serve` extra). docs/api.md describes the endpoints, the settings
and limits, and the security and persistence guarantees. Nothing is imported here, so the
CLI works without the extra.
"""
