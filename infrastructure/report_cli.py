"""``chase report``: a chase's, session's or campaign's analytics on the command line, as Markdown,
CSV or JSON on standard output, or its charts as SVG or PNG files. A session's or campaign's
report runs as a background job (a worker's, with REDIS_URL), its progress shown on stderr."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from application.access import SYSTEM
from application.analytics.sessions import CAMPAIGN, SESSION
from infrastructure import charts, report_formats


def add_parser(sub: Any) -> None:
    r = sub.add_parser("report", help="analytics of a chase, session or campaign: md, csv, json, or charts as svg/png")
    scope = r.add_mutually_exclusive_group(required=True)
    scope.add_argument("--session", help="a session id")
    scope.add_argument("--campaign", help="a campaign id")
    scope.add_argument("--chase", help="a chase id")
    r.add_argument("--format", choices=["md", "csv", "rolls", "json", *charts.FORMATS], default="md",
                   help="rolls: one roll a row, as CSV")
    r.add_argument("--chart", choices=charts.KINDS, help="svg/png: only this chart (default: all three)")
    r.add_argument("--output", default=".", help="svg/png: the folder the charts are written to (default: here)")
    r.set_defaults(func=report)


def report(args: argparse.Namespace) -> int:
    from infrastructure.bootstrap import build_ledger

    ledger = build_ledger()
    try:
        charted, per_roll = args.format in charts.FORMATS, args.format == "rolls"
        if args.chase:
            found = ledger.analytics.chase_report(UUID(args.chase), SYSTEM, series=charted, per_roll=per_roll)
        else:
            kind, group_id = (SESSION, args.session) if args.session else (CAMPAIGN, args.campaign)
            direct = charted or per_roll  # (the job's report has neither the series nor the rows)
            found = ledger.analytics.group_report(group_id, kind, SYSTEM, series=charted, per_roll=per_roll) if direct else _by_job(ledger, group_id, kind)
        if not charted:
            text = {"md": report_formats.to_markdown, "csv": report_formats.to_csv, "rolls": report_formats.to_rolls_csv}.get(args.format)
            print(text(found) if text else json.dumps(found, indent=2), end="" if text else "\n")
            return 0
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for kind_of_chart in [args.chart] if args.chart else charts.KINDS:
            path = folder / f"{found['scope']['kind']}-{found['scope']['id'][:8]}-{kind_of_chart}.{args.format}"
            path.write_bytes(charts.render(found, kind_of_chart, args.format))
            print(path)
        return 0
    finally:
        ledger.close()


def _by_job(ledger: Any, group_id: str, kind: str) -> dict[str, Any]:
    """The report as a job, its progress (chases read) on stderr until it is done."""
    job = ledger.analytics.submit_report(group_id, kind, SYSTEM)
    while job["status"] not in ("done", "failed"):
        print(f"\r{kind} report: {job['status']} {job['progress']['done']}/{job['progress']['total']} chases", end="", file=sys.stderr, flush=True)
        time.sleep(0.2)
        job = ledger.jobs.get(job["job_id"])
    print(file=sys.stderr)
    if job["status"] == "failed":
        raise SystemExit(f"the report failed: {job['error']}")
    return job["result"]
