"""The optional rules of Call of Cthulhu chases over HTTP (coc7e-chases.txt part 5): which the
chase uses, changed by the Keeper, and the list of them with the heading of each. Load, call, dump."""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView

from api import schemas as core
from api.auth import principal
from api.chases import expected_version, result
from api.systems.coc7e import schemas as s
from api.systems.coc7e.chases import blp, coc7e
from api.systems.coc7e.obstacles import reference
from domain.rules.coc7e.optional_rules import RULES


@blp.route("/<uuid:chase_id>/optional-rules")
class OptionalRules(MethodView):
    @blp.arguments(s.OptionalRules)
    @blp.response(200, core.CommandResult)
    def put(self, data, chase_id: UUID):
        """The Keeper chooses which optional rules the chase uses from now on (an action undo takes back)."""
        return result(coc7e().change_optional_rules(chase_id, data["optional_rules"], expected_version(), by=principal(chase_id)))


@reference.route("/optional-rules")
class OptionalRuleList(MethodView):
    @reference.response(200)
    def get(self):
        """Every optional rule of part 5, by the name POST /chases and PUT .../optional-rules take."""
        return {"optional_rules": [{"name": r.name, "what": r.what, "source": r.source} for r in RULES]}
