"""The state machine every system's machine builds on: a fresh ledger per example (in-memory
SQLite, inline jobs, the operator's token set for rebuilds), one chase played through the API, the
record's commands any chase takes (undo, rewind, redo, undo requests and their answers, entropy,
revealing the seed, the end), and the record checked when the example is over (checks.py).

Each system's machine adds its own rules; a rule draws its choices from the chase as the
Keeper last saw it (whose turn it is, who faces what), so most commands are legal, and the rest
are refused without harm. Counts of what was covered go to TALLIES, by system.
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
import hashlib
import itertools
import sys
from collections import defaultdict
from types import SimpleNamespace
from typing import Any, Callable
from unittest import mock
from uuid import UUID, uuid4

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import application
from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.application.record.checks import OPERATOR, history_restores, record_checks_out
from tests.application.record.from_scratch import kept_is_from_scratch
from tests.application.record.play import Play, Tally

TALLIES: dict[str, Tally] = defaultdict(Tally)
# Where the application makes ids (chases, participants, obstacles): made from the example here.
ID_MAKERS = tuple(
    f"{module.name}.uuid4"
    for module in pkgutil.walk_packages(application.__path__, "application.")
    if getattr(importlib.import_module(module.name), "uuid4", None) is uuid4
)
UNKNOWN = "00000000-0000-0000-0000-000000000000"  # a participant of no chase: refused with 404


def in_phase(*phases: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A rule for some phases of the chase; in any other, the rule mostly moves the chase on
    instead (``progress``), and now and then sends its command anyway (to be refused). Not a
    precondition: hypothesis would discard the examples where its random choice of enabled rules
    left none that fits the phase."""

    def wrap(function: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(function)
        def rule_in_phase(self: "RecordMachine", data: Any, *args: Any, **kw: Any) -> None:
            if self.view["phase"] not in phases and not self.rarely(data):
                return self.progress(data)
            return function(self, data, *args, **kw)

        return rule_in_phase

    return wrap


def machine_settings(examples: int, steps: int, **kw: Any) -> settings:
    """Few examples in CI (derandomized: the same chases every run), many more in the bench."""
    return settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, database=None, print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large], **kw,
    )


class RecordMachine(RuleBasedStateMachine):
    """One chase of ``SYSTEM`` on a ledger of its own; subclasses add the system's commands."""

    SYSTEM = ""
    # Where the ledger of each example keeps everything: SQLite in memory, or (bench/record_properties.py
    # --postgres) a PostgreSQL database that ``fresh_store`` empties before each example.
    STORE: dict[str, str] = {"SQLITE_DBNAME": ":memory:"}
    fresh_store: Callable[[], None] = staticmethod(lambda: None)

    def __init__(self) -> None:
        super().__init__()
        # Hypothesis replays an example to shrink it, and its choices follow what the dice did:
        # so the server's seeds and the ids are made from the example (its salt), not at random.
        self.salt, self.made = b"", itertools.count()
        self.patches = [mock.patch(target, self.made_id) for target in ID_MAKERS]
        self.patches.append(mock.patch("infrastructure.dice.os", SimpleNamespace(urandom=self.made_bytes)))
        for patch in self.patches:
            patch.start()
        # Rebuilds in batches of 7 events: batch boundaries fall inside actions and between chases.
        self.fresh_store()
        self.ledger = build_ledger({**self.STORE, "CHASE_LEDGER_ADMIN_TOKEN": OPERATOR, "CHASE_LEDGER_REBUILD_BATCH": "7"})
        app = create_app(lambda: self.ledger)
        app.config["TESTING"] = True
        self.client = app.test_client()
        self.play: Play | None = None
        self.plays: list[Play] = []  # every chase of this ledger; ``play`` is the one being played
        self.names = 0

    def made_bytes(self, count: int) -> bytes:
        return hashlib.shake_256(self.salt + b"|" + str(next(self.made)).encode()).digest(count)

    def made_id(self) -> UUID:
        return UUID(bytes=self.made_bytes(16), version=4)

    @initialize(data=st.data(), dice=st.sampled_from(["server", "table"]), salt=st.binary(min_size=4, max_size=4))
    def create_chase(self, data: Any, dice: str, salt: bytes) -> None:
        self.salt = salt
        self.play = Play(self.client, self.SYSTEM, dice, data.draw, TALLIES[self.SYSTEM])
        self.plays.append(self.play)
        self.set_up(data)

    @rule(data=st.data())
    def turn_to_another_chase(self, data: Any) -> None:
        """The Keeper runs a second chase on the same ledger (its events interleave with the first's
        in the log every view is built from), and goes back and forth between the two."""
        if len(self.plays) < 2:
            dice = "table" if self.plays[0].dice == "server" else "server"
            self.play = Play(self.client, self.SYSTEM, dice, data.draw, TALLIES[self.SYSTEM])
            self.plays.append(self.play)
            self.set_up(data)
        else:
            self.play = self.plays[1] if self.play is self.plays[0] else self.plays[0]

    @invariant()
    def kept_as_from_scratch(self) -> None:
        """What is kept from one command to the next (legal actions, rows, encoded answers) is
        what working it out from scratch gives (from_scratch.py)."""
        if self.play is not None:
            kept_is_from_scratch(self.ledger, self.play)

    def set_up(self, data: Any) -> None:
        """The system's first participants (the rules add more as play goes on)."""

    def progress(self, data: Any) -> None:
        """The system's next step in the current phase (see ``in_phase``)."""
        raise NotImplementedError

    def teardown(self) -> None:
        try:
            if self.plays and sys.exc_info()[0] is None:  # a step failed: that is the report
                record_checks_out(self.client, self.plays)
        finally:
            self.ledger.close()
            for patch in self.patches:
                patch.stop()

    # -- helpers for the rules ---------------------------------------------------------------

    def use(self, data: Any) -> Play:
        assert self.play is not None
        self.play.draw = data.draw
        return self.play

    @property
    def view(self) -> dict[str, Any]:
        assert self.play is not None
        return self.play.view

    def name(self, kind: str) -> str:
        self.names += 1
        return f"{kind} {self.names}"

    def someone(self, data: Any, ids: list[str] | None = None) -> str:
        """Any participant (now and then one of no chase at all)."""
        ids = list(self.view["participants"]) if ids is None else ids
        return data.draw(st.sampled_from(ids)) if ids and not self.rarely(data) else UNKNOWN

    def who_acts(self, data: Any) -> str:
        """Mostly the one whose turn it is; now and then anyone."""
        turn = self.view.get("whose_turn")
        if turn and data.draw(st.integers(0, 9)) < 8:
            return turn
        return self.someone(data)

    def token(self, data: Any, participant_id: str | None = None) -> str | None:
        """The Keeper's token (None) mostly; now and then a player's, for them or for someone else."""
        if not self.rarely(data):
            return None
        ids = list(self.view["participants"])
        if not ids:
            return None
        for_whom = participant_id if participant_id in ids and data.draw(st.booleans()) else data.draw(st.sampled_from(ids))
        return self.use(data).player_token(for_whom)

    def if_match(self, data: Any) -> int | None:
        """A conditional command now and then: on the current version, or on a stale one (409)."""
        choice = data.draw(st.integers(0, 9))
        if choice == 8:
            return self.view["version"]
        return self.view["version"] - 1 if choice == 9 else None

    def rarely(self, data: Any) -> bool:
        """One time in five (hypothesis tries the simplest choice, False, first)."""
        return data.draw(st.integers(0, 4)) == 4

    def odd(self, data: Any, usual: Any, *odd: Any) -> Any:
        """The usual value, or (one time in five) an odd one a schema lets through: the rules
        must refuse it (4xx) or play it, never fail (5xx)."""
        return data.draw(st.sampled_from(odd)) if odd and self.rarely(data) else usual

    def entropy(self, data: Any) -> dict[str, str]:
        return {"entropy": data.draw(st.sampled_from(["", "", "lucky charm", "x" * 40]))}

    # -- the record: any system --------------------------------------------------------------

    @rule(data=st.data(), what=st.sampled_from(["undo", "undo then redo", "rewind", "rewind then redo", "redo", "ask for an undo",
                                                 "answer an undo request", "entropy", "reveal the seed", "reveal then undo", "end then undo", "end"]))
    def keep_the_record(self, data: Any, what: str) -> None:
        """Undo, rewind and redo, undo requests and their answers, entropy, the seed, the end (and
        the Keeper thinking better of revealing the seed or of ending the chase)."""
        play = self.use(data)
        before = self.view["version"]
        waiting = [r["request_id"] for r in self.view["undo_requests"] if r.get("answer") is None]
        if what.startswith("undo"):
            body = {"count": data.draw(st.integers(1, 3)), "reason": "the property test"}
            play.send("undo", "/undo", body, token=self.token(data), if_match=self.if_match(data))
        elif what.startswith("rewind"):
            # Mostly an earlier version (a rewind that can be taken), now and then one that is not:
            # a draw over 1..version+1 left whether a machine ever rewound to the luck of its draws.
            earlier = st.integers(1, max(1, self.view["version"] - 1))
            to_version = data.draw(st.one_of(earlier, earlier, earlier, st.just(self.view["version"] + 1)))
            # A rewind needs If-Match (428 without): on the version now, or now and then a stale one (412).
            if_match = self.if_match(data)
            play.send("rewind", "/rewind", {"to_version": to_version}, if_match=self.view["version"] if if_match is None else if_match)
        elif what == "ask for an undo":
            body = {"count": data.draw(st.integers(1, 2)), "note": "that roll was a mistake"}
            play.send("undo request", "/undo-requests", body, token=self.token(data))
        elif what == "answer an undo request":
            request_id = data.draw(st.sampled_from(waiting + [999])) if waiting else 999
            play.send("answer undo request", f"/undo-requests/{request_id}", {"accept": data.draw(st.booleans())},
                      token=self.token(data), if_match=self.if_match(data))
        elif what == "entropy":
            body = {"entropy": data.draw(st.sampled_from(["the players' lucky charm", "42", "ж"]))}
            play.send("entropy", "/entropy", body, token=self.token(data))
        elif what.startswith("reveal"):
            play.send("reveal seed", "/reveal-seed", {}, token=self.token(data))
        elif what == "end then undo" or self.rarely(data):  # a plain end seldom: the chase should have a chance to run
            body = {"outcome": data.draw(st.sampled_from(["escaped", "abandoned", "caught", "captured", "both stopped"]))}
            play.send("end", "/end", body, token=self.token(data))
        if what.endswith("then undo"):
            play.send("undo", "/undo", {"count": 1, "reason": "the Keeper thought better of it"})
            what += " then redo" if data.draw(st.booleans()) else ""
        if what.endswith("redo"):
            play.send("redo", "/redo", {}, token=self.token(data), if_match=self.if_match(data))
        history_restores(play, before)
