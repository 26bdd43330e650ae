"""The engine's one entry point for the browser worker: JSON request in, JSON reply out."""
import json

from . import __version__


def handle(request: str) -> str:
    """Answer one request from the page (a JSON text) with a JSON text."""
    req = json.loads(request)
    if req.get("op") == "ping":
        return json.dumps({"ok": True, "version": __version__})
    return json.dumps({"ok": False, "error": f"unknown op {req.get('op')!r}"})
