"""Response schemas of D6 races and chases; the request schemas are made from the commands'
declarations (api/declared.py, application/systems/d6/inputs.py)."""
from __future__ import annotations

from marshmallow import fields

from api.schemas import ChaseView, CommandResult
from api.systems.d6 import view_docs as docs
from api.view_docs import Shown


# The command envelope every system answers with (api.chases.result): one schema in the document.
D6Result = CommandResult


class D6View(ChaseView):
    """The track view of a D6 chase: positions in metres, rates, fatigue and this round's difficulties."""

    round_over = fields.Boolean()
    participants = fields.Dict(keys=fields.String(), values=Shown(docs.D6Participant), metadata={"description": "by participant id"})
    locations = fields.List(fields.Integer(), metadata={"description": "none in D6: positions are in metres", "maxItems": 0})
    settings = Shown(docs.Settings, metadata={"description": "the GM's choices: wild_die_one, acceleration, speed_limit"})
    course = Shown(docs.Course, metadata={"description": "finish (metres or null) and terrain stretches (from, to, terrain, modifier)"})
