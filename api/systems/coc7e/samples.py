"""Call of Cthulhu reference data for the Keeper: the sample hazards and barriers for car and foot
chases (coc7e-chases.txt part 3, the lists part 5's random hazards draw on) and the MOV Rates table."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.systems.coc7e import rules_docs
from api.systems.coc7e.obstacles import reference
from domain.rules.coc7e import mov_rates, samples


class SampleQuery(Schema):
    kind = fields.String(validate=validate.OneOf(samples.KINDS), load_default=None)
    setting = fields.String(validate=validate.OneOf(samples.SETTINGS), load_default=None, metadata={"description": "car or foot chase"})


@reference.route("/sample-obstacles")
class SampleObstacles(MethodView):
    @reference.arguments(SampleQuery, location="query")
    @reference.response(200, rules_docs.SampleObstacles)
    def get(self, query):
        """The "Sample Hazards" and "Sample Barriers" for car and foot chases, as printed (?kind=, ?setting=)."""
        return {"samples": [
            {"kind": s.kind, "setting": s.setting, "name": s.name, "source": s.source}
            for s in samples.samples(query["kind"], query["setting"])
        ]}


@reference.route("/mov-rates")
class MovRates(MethodView):
    @reference.response(200, rules_docs.MovRates)
    def get(self):
        """The "MOV Rates" table: each MOV's approximate speed in miles an hour."""
        return {"mov_rates": [{"mov": mov, "mph": mph} for mov, mph in mov_rates.MPH_BY_MOV.items()], "source": mov_rates.MOV_RATES}
