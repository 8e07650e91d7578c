"""WSGI entry point (``gunicorn api.wsgi:app``, any WSGI server): every endpoint but the live
streams, which only the ASGI host sends (``api.asgi:app``, what ``chase serve`` runs)."""
from api import create_app

app = create_app()
