"""The ``chase`` command: serve the API, play the demo, verify a log; workers, rebuilds, replays."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any


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


# -- background work (issue 5) -------------------------------------------------------------------


def _logging() -> None:
    from infrastructure.logs import configure
    from infrastructure.settings import web_settings

    configure(web_settings().log_format)


def _stop_on_signals(stop: Any) -> None:
    import signal

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())


def worker(args: argparse.Namespace) -> int:
    """An RQ worker on the job queues, with the sweeper (and the projection runner if asked)."""
    import threading

    from rq import Queue

    from infrastructure.bootstrap import build_ledger
    from infrastructure.process import use_as_process_ledger
    from infrastructure.queues import (
        queue_names,
        redis_client,
        run_scheduler,
        run_worker,
    )
    from infrastructure.runner import Sweeper, ViewFollower, start

    if args.health:
        return worker_health()
    _logging()
    ledger = use_as_process_ledger(build_ledger())
    settings = ledger.worker
    if not settings.redis_url:
        print("chase worker needs REDIS_URL (without it, jobs run inline in the API process)", file=sys.stderr)
        ledger.close()
        return 2
    lanes = [lane.strip() for lane in args.queues.split(",")] if args.queues else list(settings.lanes)
    names = queue_names(settings.prefix, lanes)
    stop = threading.Event()
    scheduler_connection = redis_client(settings.redis_url)
    threads = [start(lambda s: run_scheduler([Queue(n, connection=scheduler_connection) for n in names], scheduler_connection, s), stop, "rq-scheduler")]
    if not args.no_sweep:
        threads.append(start(Sweeper(ledger.jobs, settings.sweep_interval).run, stop, "job-sweeper"))
    if args.project:
        threads.append(start(ViewFollower(ledger, ledger.persistence, settings.project_poll).run, stop, "projection-runner"))
    print(f"chase worker {ledger.jobs.worker_name}: queues {', '.join(names)}", file=sys.stderr, flush=True)
    try:
        run_worker(settings.redis_url, names, burst=args.burst, stop=stop)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)
        scheduler_connection.close()
        ledger.close()
    return 0


def worker_health() -> int:
    """Healthy when an RQ worker of this host is registered with Redis (for container checks)."""
    import socket

    from rq import Worker

    from infrastructure.queues import redis_client
    from infrastructure.settings import worker_settings

    settings = worker_settings()
    if not settings.redis_url:
        print("REDIS_URL is not set", file=sys.stderr)
        return 1
    try:
        workers = Worker.all(connection=redis_client(settings.redis_url))
    except Exception as e:  # noqa: BLE001
        print(f"Redis: {e}", file=sys.stderr)
        return 1
    mine = [w for w in workers if w.hostname == socket.gethostname()]
    print(f"{len(mine)} worker(s) of {socket.gethostname()} registered")
    return 0 if mine else 1


def project_health(path: str, poll: float) -> int:
    """Healthy when the runner of this container went round its loop lately."""
    import time

    try:
        age = time.time() - os.path.getmtime(path)
    except OSError:
        print(f"no heartbeat at {path}", file=sys.stderr)
        return 1
    print(f"last heartbeat {age:.1f}s ago")
    return 0 if age < max(30.0, 10 * poll) else 1


def project(args: argparse.Namespace) -> int:
    """The projection runner: keep the views current by following the notification log."""
    import threading

    from infrastructure.settings import worker_settings

    heartbeat = os.environ.get("CHASE_LEDGER_PROJECT_HEARTBEAT_FILE", "/tmp/chase-project.heartbeat")
    if args.health:
        return project_health(heartbeat, worker_settings().project_poll)

    from infrastructure.bootstrap import build_ledger
    from infrastructure.runner import ViewFollower

    _logging()
    ledger = build_ledger()
    follower = ViewFollower(ledger, ledger.persistence, args.poll or ledger.worker.project_poll, heartbeat_file=heartbeat)
    try:
        if args.set_aside or args.retry:
            return set_aside(ledger, args.retry)
        if args.once:
            follower.catch_up()
            return 0
        stop = threading.Event()
        _stop_on_signals(stop)
        print(f"chase project: following the log of {ledger.name} into its views", file=sys.stderr, flush=True)
        follower.run(stop)
        return 0
    finally:
        ledger.close()


def set_aside(ledger: Any, retry: str | None) -> int:
    """List the chases set aside by the projector; with ``retry`` ("all" or a chase id), project
    them again first. Exit 1 while any is still set aside."""
    import json

    if retry:
        for result in ledger.updater.retry(None if retry == "all" else retry):
            print(json.dumps(result))
    records = ledger.updater.set_aside_chases()
    for r in records:
        print(f"set aside: chase {r['chase_id']} at event version {r['version']} (notification {r['notification_id']}), "
              f"{r['attempts']} attempt(s): {r['error']}")
    print(f"{len(records)} chase(s) set aside")
    return 1 if records else 0


def progress_bar(done: int, total: int, width: int = 30) -> str:
    share = done / total if total else 1.0
    filled = min(width, int(share * width))
    return f"[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} events ({share:.0%})"


def _follow(ledger: Any, job: dict[str, Any], unit: str, quiet: bool = False) -> dict[str, Any]:
    """Print a job's progress until it is done or failed (a bar redrawn in place on a terminal,
    a line per tenth otherwise); the job at the end."""
    import time

    tty = sys.stdout.isatty()
    shown: Any = None
    started, hinted = time.monotonic(), False
    while True:
        job = ledger.jobs.get(job["job_id"])
        done, total, status = job["progress"]["done"], job["progress"]["total"], job["status"]
        if not quiet:
            line = progress_bar(done, total).replace("events", unit) if total or status == "done" else f"{status}..."
            mark = line if tty else (status, done * 10 // total if total else -1)
            if mark != shown:
                print(f"\r{line}" if tty else line, end="" if tty else "\n", flush=True)
                shown = mark
        if status in ("done", "failed"):
            if tty and not quiet:
                print()
            return job
        if not hinted and status in ("pending", "queued") and ledger.worker.redis_url and time.monotonic() - started > 10:
            print("\nstill waiting for a worker: is `chase worker` running?", file=sys.stderr, flush=True)
            hinted = True
        time.sleep(0.2)


def rebuild(args: argparse.Namespace) -> int:
    """Clear the views and rebuild them from the log as a job, printing a progress bar."""
    from infrastructure.bootstrap import build_ledger

    ledger = build_ledger()
    try:
        views = [v.strip() for v in args.views.split(",")] if args.views else None
        job = ledger.jobs.rebuild_views(views) if views else ledger.jobs.rebuild_views()
        where = "by a worker" if ledger.worker.redis_url else "in this process"
        print(f"rebuild job {job['job_id']} ({where})", flush=True)
        if args.no_wait:
            return 0
        job = _follow(ledger, job, "events")
        if job["status"] == "failed":
            print(f"rebuild failed: {job['error']}", file=sys.stderr)
            return 1
        r = job["result"]
        print(f"views rebuilt: {', '.join(r['views'])} at notification {r['notification_id']} ({r['events']:,} events)")
        return 0
    finally:
        ledger.close()


def replay(args: argparse.Namespace) -> int:
    """Replay a recorded chase event by event (a job), then show it at a pace; or check it."""
    import json
    import time
    from uuid import UUID

    from infrastructure.bootstrap import build_ledger

    ledger = build_ledger()
    try:
        chase_id = UUID(args.chase_id)
        job = ledger.jobs.check(chase_id) if args.check else ledger.jobs.replay(chase_id)
        job = _follow(ledger, job, "versions" if args.check else "frames", quiet=args.json)
        if job["status"] == "failed":
            print(f"{job['kind']} failed: {job['error']}", file=sys.stderr)
            return 1
        if args.check:
            r = job["result"]
            print(json.dumps(r, indent=2))
            return 0 if r["equal"] else 1
        after = 0
        while True:
            frames = ledger.jobs.frames(job["job_id"], chase_id, after, 200)
            if not frames:
                return 0
            for frame in frames:
                after = frame["step"]
                print(json.dumps(frame) if args.json else describe_frame(frame), flush=True)
                if args.pace:
                    time.sleep(args.pace)
    finally:
        ledger.close()


def describe_frame(frame: dict[str, Any]) -> str:
    track = frame["views"].get("track", {})
    names = {pid: p["name"] for pid, p in track.get("participants", {}).items()}
    where = ", ".join(f"{names[pid]} @{p['location']}" for pid, p in track.get("participants", {}).items() if p.get("location") is not None)
    return f"{frame['step']:>5}  v{frame['version']:<5} {frame['event']['name']:<22} round {track.get('round', 0)}  {where}"


def main(argv: list[str] | None = None) -> int:
    from infrastructure import report_cli

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
    w = sub.add_parser("worker", help="run an RQ worker on the job queues (needs REDIS_URL)")
    w.add_argument("--queues", help="lanes to take jobs from, in order: interactive,batch (default CHASE_LEDGER_QUEUES)")
    w.add_argument("--burst", action="store_true", help="quit when the queues are empty")
    w.add_argument("--project", action="store_true", help="also run the projection runner (see chase project)")
    w.add_argument("--no-sweep", action="store_true", help="do not resend pending, lost or abandoned jobs")
    w.add_argument("--health", action="store_true", help="exit 0 if a worker of this host is registered (container health check)")
    w.set_defaults(func=worker)
    pr = sub.add_parser("project", help="keep the views current by following the event log (projection runner)")
    pr.add_argument("--once", action="store_true", help="catch the views up once and quit")
    pr.add_argument("--poll", type=float, help="seconds between polls (default CHASE_LEDGER_PROJECT_POLL)")
    pr.add_argument("--set-aside", action="store_true", help="list the chases whose events could not be projected, and quit")
    pr.add_argument("--retry", nargs="?", const="all", metavar="CHASE_ID", help="project the set-aside chases again (all, or one), list what is left, and quit")
    pr.add_argument("--health", action="store_true", help="exit 0 if this container's runner is going round (container health check)")
    pr.set_defaults(func=project)
    rb = sub.add_parser("rebuild", help="clear the views and rebuild them from the log (a job), with a progress bar")
    rb.add_argument("--views", help="track,vehicles,rolls (they share one position: any rebuilds all)")
    rb.add_argument("--no-wait", action="store_true", help="submit the job and quit")
    rb.set_defaults(func=rebuild)
    rp = sub.add_parser("replay", help="replay a recorded chase event by event (a job) and print it")
    rp.add_argument("chase_id")
    rp.add_argument("--pace", type=float, default=0.0, help="seconds between steps when printing")
    rp.add_argument("--json", action="store_true", help="print each frame as JSON")
    rp.add_argument("--check", action="store_true", help="instead, check the live views against a replay at every version")
    rp.set_defaults(func=replay)
    report_cli.add_parser(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
