"""``chase rebuild`` and ``chase replay``: jobs submitted from the command line and followed
with a progress bar until they are done."""
from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parsers(sub: Any) -> None:
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

