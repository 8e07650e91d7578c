"""The ``chase`` command: serve the API, play the demo, verify a log; workers, rebuilds, replays."""
from __future__ import annotations

import argparse
import os
import sys


def serve_command(host: str, port: int, workers: int, threads: int, app: str = "api.asgi:app") -> list[str]:
    """gunicorn with uvicorn workers: each an event loop that sends the live streams (none holds
    a thread) and ``threads`` threads for every request (api/asgi.py)."""
    return [
        sys.executable, "-m", "gunicorn",
        "--bind", f"{host}:{port}",
        "--workers", str(workers),
        "--worker-class", "api.worker.Worker",
        "--config", "python:api.gunicorn_conf",  # JSON logs in each worker; metrics of exited workers
        app,
    ]


def serve(args: argparse.Namespace) -> int:
    """Run the API under gunicorn; the embedded default is a SQLite file and inline jobs."""
    import resource

    os.environ.setdefault("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    os.environ["CHASE_LEDGER_THREADS"] = str(args.threads)  # each worker's pool (api/asgi.py)
    _metrics_directory()
    # Every open stream is a socket: allow as many as the system lets this user have.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    os.execv(sys.executable, serve_command(args.host, args.port, args.workers, args.threads))
    return 0  # pragma: no cover - execv does not return


def _metrics_directory() -> None:
    """Every worker's counts in one directory, added up by /metrics (infrastructure/metrics.py):
    the one named by PROMETHEUS_MULTIPROC_DIR, without the counts files of an earlier run (they
    are not this run's), or a fresh one."""
    import glob
    import tempfile

    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="chase-metrics-")
        return
    os.makedirs(directory, exist_ok=True)
    for counts in glob.glob(os.path.join(directory, "*.db")):
        os.remove(counts)


def demo(args: argparse.Namespace) -> int:
    from infrastructure.bootstrap import build_ledger
    from infrastructure.demo import play

    play(build_ledger({"SQLITE_DBNAME": args.database}))
    return 0


def verify(args: argparse.Namespace) -> int:
    """Check an exported chase log offline: hash chain, seeds, every server roll."""
    import json

    from domain.verification import VerificationFailed
    from infrastructure.systems import verify as check

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
    from infrastructure import job_cli, report_cli, worker_cli

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
    worker_cli.add_parsers(sub)
    job_cli.add_parsers(sub)
    report_cli.add_parser(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
