"""The browser pages (issue 19) ship in the package and work offline: every file they load comes
from this API, as the type a browser runs, under a policy that lets the page reach nothing else."""
from __future__ import annotations

import re
from pathlib import Path

from api import create_app

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"


def test_every_page_file_is_served_from_the_package_as_a_browser_runs_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SQLITE_DBNAME", str(tmp_path / "chase.sqlite3"))
    client = create_app().test_client()
    # The root sends a browser to the pages.
    assert client.get("/").headers["Location"].endswith("/app/")
    page = client.get("/app/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    # The page may load and call only this API: no CDN, no other origin.
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy and "script-src 'self'" in policy
    # Every module of the pages and of the verifier they import is served as JavaScript.
    modules = [f"/app/{p.name}" for p in (STATIC / "app").glob("*.mjs")] + [
        f"/app/verifier/{p.relative_to(STATIC / 'verifier').as_posix()}" for p in (STATIC / "verifier").rglob("*.mjs")]
    assert "/app/main.mjs" in modules and "/app/verifier/verify.mjs" in modules
    for path in modules:
        answer = client.get(path)
        assert answer.status_code == 200 and answer.mimetype == "text/javascript", path
    assert client.get("/app/style.css").mimetype == "text/css"
    # Nothing in them names another origin to fetch from.
    for file in [*(STATIC / "app").iterdir(), *(STATIC / "verifier").rglob("*.mjs")]:
        assert not re.search(r"(src|href|import|fetch)\W*[\"'`]https?://", file.read_text()), file
    # A path out of the folder is not served.
    assert client.get("/app/..%2fweb.py").status_code == 404 and client.get("/app/verifier/..%2f..%2fweb.py").status_code == 404
