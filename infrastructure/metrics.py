"""Prometheus metrics (prometheus-client): what every process counts, and what the store knows.

Counted by the process that sees it: HTTP requests and their latencies, commands. Under
gunicorn each worker is a process of its own, so ``chase serve`` runs prometheus-client's
multiprocess mode: ``PROMETHEUS_MULTIPROC_DIR`` names a directory where each worker keeps its
counts (``chase serve`` makes a fresh one when unset), and ``/metrics``, whichever worker answers
it, adds them up (``MultiProcessCollector``). Without the variable, one process counts alone.

Read from the store at each scrape, so they are the same whichever process answers: the events
recorded, the jobs by kind and status, and how far the views lag behind the log.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import REGISTRY, Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
disable_created_metrics()  # no *_created series beside every count: Prometheus needs none

REQUESTS = Counter("chase_http_requests_total", "HTTP requests answered", ["method", "route", "status"])
LATENCY = Histogram(
    "chase_http_request_duration_seconds", "Time to answer an HTTP request (a stream: to open it)", ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
COMMANDS = Counter("chase_commands_total", "Commands on chases, by route and outcome (2xx accepted, 4xx refused, 5xx failed)", ["route", "outcome"])


# The labelled series of each (method, route, status, command), looked up once: prometheus-client's
# ``labels`` took a third of a request's counting (bench/http_profile.py). Routes are the app's URL
# rules and statuses HTTP's, so the keys are few, as the series themselves are.
_SERIES: dict[tuple[str, str, int, bool], tuple[Any, Any, Any]] = {}


def count(method: str, route: str, status: int, seconds: float, command: bool) -> None:
    """Count one request answered (and a command, when it was one)."""
    key = (method, route, status, command)
    series = _SERIES.get(key)
    if series is None:
        series = _SERIES[key] = (
            REQUESTS.labels(method, route, str(status)), LATENCY.labels(method, route),
            COMMANDS.labels(route, f"{status // 100}xx") if command else None,
        )
    requests, latency, commands = series
    requests.inc()
    latency.observe(seconds)
    if commands is not None:
        commands.inc()


class StoreCollector(Collector):
    """Events, jobs and projection lag, read from the store at each scrape."""

    def __init__(self, ledger: Any) -> None:
        self.ledger = ledger

    def collect(self) -> Iterator[Metric]:
        ledger = self.ledger()
        last = ledger.recorder.max_notification_id() or 0
        events = GaugeMetricFamily("chase_events_recorded", "Events recorded in the store (the last notification id)")
        events.add_metric([], last)
        yield events
        lag = GaugeMetricFamily("chase_projection_lag_events", "Events recorded that the views' tracking position has not reached")
        lag.add_metric([], max(0, last - (ledger.views.max_tracking_id(ledger.name) or 0)))
        yield lag
        set_aside = GaugeMetricFamily("chase_projection_set_aside_chases", "Chases whose events could not be projected, set aside")
        set_aside.add_metric([], len(ledger.views.set_aside_chases()))
        yield set_aside
        jobs = GaugeMetricFamily("chase_jobs", "Jobs in the store, by kind and status", labels=["kind", "status"])
        for kind, status, count in ledger.jobs.store.counts() if ledger.jobs is not None else ():
            jobs.add_metric([kind, status], count)
        yield jobs


def exposition(ledger: Any) -> bytes:
    """The metrics as Prometheus text: every process's counts (multiprocess mode) or this one's,
    then the store's. ``ledger``: a function giving this process's ledger."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        counted = CollectorRegistry()
        MultiProcessCollector(counted)
    else:
        counted = REGISTRY
    stored = CollectorRegistry(auto_describe=False)
    stored.register(StoreCollector(ledger))
    return generate_latest(counted) + generate_latest(stored)
