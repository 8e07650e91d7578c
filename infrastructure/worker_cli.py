"""``chase worker`` and ``chase project``: the long-running processes of background work (issue 5),
an RQ worker with the job sweeper and the projection runner, and their container health checks."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def add_parsers(sub: Any) -> None:
    w = sub.add_parser("worker", help="run an RQ worker on the job queues (needs REDIS_URL)")
    w.add_argument("--queues", help="lanes to take jobs from, in order: interactive,batch,webhooks (default CHASE_LEDGER_QUEUES; webhooks beside others get a thread of their own)")
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
    from infrastructure.queues import APART, queue_names, redis_client
    from infrastructure.rq_workers import run_scheduler, run_worker
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
    # A lane worked apart (webhooks) gets its own RQ worker in a thread, unless it is all this worker takes.
    apart = [lane for lane in lanes if lane in APART and len(lanes) > 1]
    main_names = queue_names(settings.prefix, [lane for lane in lanes if lane not in apart])
    for lane in apart:
        apart_names = queue_names(settings.prefix, [lane])
        threads.append(start(lambda s, n=apart_names: run_worker(settings.redis_url, n, burst=args.burst, stop=s), stop, f"rq-worker-{lane}"))
    print(f"chase worker {ledger.jobs.worker_name}: queues {', '.join(names)}", file=sys.stderr, flush=True)
    try:
        run_worker(settings.redis_url, main_names, burst=args.burst, stop=stop)
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

