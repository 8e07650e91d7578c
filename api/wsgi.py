"""WSGI entry point for gunicorn: ``gunicorn api.wsgi:app`` (the ledger is built per worker)."""
from api import create_app

app = create_app()
