"""The ``chase`` command: serve the API, play the demo."""
from __future__ import annotations

import argparse
import os
import sys


def serve(args: argparse.Namespace) -> int:
    """Run the API under gunicorn; the embedded default is a SQLite file and inline jobs."""
    os.environ.setdefault("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    command = [
        sys.executable, "-m", "gunicorn",
        "--bind", f"{args.host}:{args.port}",
        "--workers", str(args.workers),
        "--threads", str(args.threads),
        "--access-logfile", "-",
        "api.wsgi:app",
    ]
    os.execv(sys.executable, command)
    return 0  # pragma: no cover - execv does not return


def demo(args: argparse.Namespace) -> int:
    from infrastructure.bootstrap import build_ledger
    from infrastructure.demo import play

    play(build_ledger({"SQLITE_DBNAME": args.database}))
    return 0


def verify(args: argparse.Namespace) -> int:
    """Check an exported chase log offline: hash chain, seeds, every server roll."""
    import json

    from domain.verification import VerificationFailed, verify as check

    try:
        with open(args.file, encoding="utf-8") as f:
            export = json.load(f)
    except (OSError, ValueError) as e:
        print(f"cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    try:
        report = check(export, kept_head=args.head)
    except VerificationFailed as e:
        print(f"FAILED at event {e.version}: {e.reason}", file=sys.stderr)
        return 1
    print(report.summary())
    print("OK: the chain, the seeds and every recomputable server roll check out")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="chase", description="Chase Ledger: event-sourced chases for tabletop RPGs")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("serve", help="run the HTTP API (gunicorn)")
    p.add_argument("--host", default=os.environ.get("CHASE_LEDGER_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("CHASE_LEDGER_PORT", "8000")))
    p.add_argument("--workers", type=int, default=int(os.environ.get("CHASE_LEDGER_WORKERS", "2")))
    p.add_argument("--threads", type=int, default=int(os.environ.get("CHASE_LEDGER_THREADS", "4")))
    p.set_defaults(func=serve)
    d = sub.add_parser("demo", help="play Harvey and the farmer (coc7e-chases.txt) and print the track and rolls")
    d.add_argument("--database", default=":memory:", help="SQLite file to record the demo chase in (default: in memory)")
    d.set_defaults(func=demo)
    v = sub.add_parser("verify", help="check an exported chase log offline (GET /chases/<id>/export)")
    v.add_argument("file", help="the export, as JSON")
    v.add_argument("--head", help="a chain head you kept (X-Chain-Head): it must be in the log")
    v.set_defaults(func=verify)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
