"""The HTTP and WebSocket API, one ``APIRouter`` per resource (``create_app`` includes them):
``site`` (health, catalogue, rules), ``games`` (create, list, join, play, the table talk, the
socket), ``replays`` (records and replays), ``advice`` (hints and reviews)."""
