"""Call of Cthulhu random hazards over HTTP: the Keeper rolls the random hazards table as a
background job (coc7e-chases.txt "Random Hazards and Barriers"; application/systems/coc7e/hazards.py).
The job is read like any other (GET .../jobs/<id>, api/jobs.py)."""
from __future__ import annotations

from uuid import UUID, uuid4

from flask import request
from flask.views import MethodView
from api.parsing import Blueprint
from marshmallow import Schema, fields, validate

from api import dry_run
from api.auth import principal
from api.jobs import JobAccepted, accepted, chase_job_url
from api.runtime import ledger
from application.systems.coc7e.hazards import roll_random_hazards, try_random_hazards
from domain.errors import InvalidInput
from domain.rules.coc7e.random_hazards import ENVIRONMENTS, MAX_KEY_LENGTH, MAX_LOCATIONS

blp = Blueprint("coc7e-jobs", __name__, url_prefix="/chases", description="Call of Cthulhu 7e: random hazards, rolled as a background job")


class RandomHazards(Schema):
    locations = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, MAX_LOCATIONS), metadata={"description": "locations ahead to roll for, one roll each"})
    environment = fields.String(load_default="normal", validate=validate.OneOf(list(ENVIRONMENTS)), metadata={"description": "hazardous: a penalty die; quiet: a bonus die (coc7e-chases.txt \"Random Hazards and Barriers\")"})
    from_location = fields.Integer(strict=True, allow_none=True, load_default=None, metadata={"description": "the first stretch rolled starts at this location"})
    key = fields.String(validate=validate.Length(1, MAX_KEY_LENGTH), metadata={"description": "idempotency key (or the Idempotency-Key header): the same key records once"})
    table_dice = fields.List(fields.Integer(strict=True), validate=validate.Length(0, 100), metadata={"description": "faces rolled at the table instead of the server dice"})


@blp.route("/<uuid:chase_id>/random-hazards")
class RandomHazardsJob(MethodView):
    own_idempotency_key = True  # the key names the job (api/idempotency.py leaves it to this endpoint)

    @blp.arguments(RandomHazards)
    @blp.response(202, JobAccepted)
    @dry_run.documented
    def post(self, data, chase_id: UUID):
        """The Keeper rolls the random hazards table for the locations ahead (a background job).

        Each location's roll is an event on the chase, with the chase's server dice. Send an
        ``Idempotency-Key`` header (or ``key``): the same key returns the same job and the rolls
        are recorded once, however often the request or the job is repeated.
        """
        by = principal(chase_id)
        header = request.headers.get("Idempotency-Key")
        if header is not None and not (1 <= len(header) <= MAX_KEY_LENGTH and header.isprintable()):
            # Bounded like the body's key, which it stands in for (it names the job).
            raise InvalidInput("Idempotency-Key", f"must be 1 to {MAX_KEY_LENGTH} printable characters")
        if dry_run.asked():  # the odds of each location's roll, here and now: no job, nothing recorded
            return dry_run.answer(lambda: try_random_hazards(
                ledger(), chase_id, data["locations"], data["environment"], data["from_location"], data.get("table_dice"), by=by
            ))
        key = data.get("key") or request.headers.get("Idempotency-Key") or str(uuid4())
        job = roll_random_hazards(
            ledger().jobs, chase_id, key, data["locations"], data["environment"], data["from_location"], data.get("table_dice"), by=by
        )
        return accepted(job, chase_job_url(chase_id, job))
