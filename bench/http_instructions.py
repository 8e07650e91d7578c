"""Instructions per dice-roll command, the API's and the floor's, counted by valgrind (callgrind).

Run from the project folder (valgrind must be installed; each side takes a few minutes)::

    .venv/bin/python bench/http_instructions.py                 # API and floor, 200 commands each
    .venv/bin/python bench/http_instructions.py --sides api --commands 100
    .venv/bin/python bench/http_instructions.py --store postgresql --pg-database chase_bench

CPU time is noisy on a machine others share, and this one's processor counters are not there to
read (``perf stat -e instructions`` answers "not supported"). Instructions are counted the same
however busy the machine is, so two versions of the code can be compared a minute or an hour
apart. Each side runs in a process of its own under callgrind: ``--chases`` chases on a SQLite
file in a temporary folder, or in ``--pg-database`` (dropped and created afresh, as bench/http.py
does; the server's own work is not counted, only the client library's) (the API's chases with a
participant, Harvey, as bench/http.py sets them up),
warmed up with as many commands as it measures, then ``--commands`` commands through Flask's
test client (``POST /chases/{id}/dice-rolls``; the floor's ``POST /tallies/{id}/rolls``,
bench/floor_app.py). Only the measured commands are counted: they run inside
``itertools.starmap``, and callgrind collects inside its C function alone. The serving layer
(uvicorn, a2wsgi) is not in it: the same for both sides, it is in bench/http.py's figures.
"""
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, where bench/http.py would shadow the
# standard library's http package: take the folder off.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import collections  # noqa: E402
import itertools  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
from typing import Any, Callable  # noqa: E402

from bench.instruction_counts import each_side, options  # noqa: E402

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}


def api_client(chases: int) -> tuple[Any, list[tuple[str, dict[str, str], dict[str, Any]]]]:
    from api import create_app
    from infrastructure.bootstrap import build_ledger

    env = dict(os.environ)
    client = create_app(lambda: build_ledger(env)).test_client()
    commands = []
    for n in range(chases):
        created = client.post("/chases", json={"name": f"Bench chase {n}"}).get_json()
        auth = {"Authorization": f"Bearer {created['keeper_token']}"}
        path = f"/chases/{created['chase']['chase_id']}"
        harvey = client.post(f"{path}/participants", json=HARVEY, headers=auth).get_json()["participant_id"]
        commands.append((f"{path}/dice-rolls", auth, {"expression": "1D6", "participant_id": harvey, "purpose": "counted"}))
    return client, commands


def floor_client(chases: int) -> tuple[Any, list[tuple[str, dict[str, str], dict[str, Any]]]]:
    from bench import floor_app

    client = floor_app.app.test_client()
    tallies = [client.post("/tallies", json={"name": f"Bench chase {n}"}).get_json()["tally_id"] for n in range(chases)]
    return client, [(f"/tallies/{t}/rolls", {}, {"purpose": "counted"}) for t in tallies]


SIDES: dict[str, Callable[[int], Any]] = {"api": api_client, "floor": floor_client}


def inner(side: str, chases: int, commands: int) -> None:
    """In the process callgrind runs: set up, warm up, then the counted commands."""
    client, sent = SIDES[side](chases)

    def send(count: int) -> None:
        for i in range(count):
            path, headers, body = sent[i % len(sent)]
            response = client.post(path, json=body, headers=headers)
            if response.status_code != 200:
                raise SystemExit(f"{side}: POST {path} answered {response.status_code}: {response.get_data()[:300]!r}")

    send(commands)
    collections.deque(itertools.starmap(send, [(commands,)]), maxlen=0)  # counted: inside starmap_next


def count(side: str, args: argparse.Namespace, folder: Path, store_env: dict[str, str]) -> int:
    from bench.http import OURS

    env = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    env.update(store_env)
    out = folder / f"callgrind-{side}.out"
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=starmap_next", f"--callgrind-out-file={out}",
         sys.executable, __file__, "--inner", side, "--chases", str(args.chases), "--commands", str(args.commands)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"{side}: callgrind failed ({done.returncode}): {done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = options(__doc__)
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner(args.inner, args.chases, args.commands)
        return

    def per_command(side: str, folder: Path, store_env: dict[str, str]) -> tuple[float, str]:
        return count(side, args, folder, store_env) / args.commands, f" ({args.commands} commands, {args.chases} chases)"

    each_side(args, ("valgrind",), per_command)


if __name__ == "__main__":
    main()
