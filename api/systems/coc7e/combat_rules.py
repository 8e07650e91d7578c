"""Call of Cthulhu 7e combat reference data over HTTP: the weapons of Table XVII, the armor
examples and the damage bonus and Build of STR+SIZ (coc7e-combat.txt)."""
from __future__ import annotations

from flask.views import MethodView
from api.parsing import Blueprint

from api.systems.coc7e import rules_docs

from domain.rules.coc7e import weapon_damage, weapons

blp = Blueprint("coc7e-combat-rules", __name__, url_prefix="/rules/coc7e", description="Call of Cthulhu 7e combat reference data: weapons, armor, damage bonus")


@blp.route("/weapons")
class Weapons(MethodView):
    @blp.response(200, rules_docs.Weapons)
    def get(self):
        """Every weapon of coc7e-combat.txt "Table XVII: Weapons", each citing its table, and bare hands."""
        return {"weapons": [
            {"name": w.name, "table": w.table, "skill": w.skill, "damage": w.damage, "bands": list(w.bands), "base_range": w.base_range,
             "range_yards": list(w.range_yards), "uses_per_round": w.uses_per_round, "shots_per_round": w.shots_per_round,
             "burst": w.burst, "full_auto": w.full_auto, "magazine": w.magazine, "malfunction": w.malfunction, "impales": w.impales,
             "effect": w.effect, "blast_yards": w.blast_yards, "cost": w.cost, "era": w.era, "source": w.source}
            for w in (weapons.UNARMED_ATTACK, *weapons.WEAPONS)
        ]}


@blp.route("/armor")
class Armor(MethodView):
    @blp.response(200, rules_docs.ArmorExamples)
    def get(self):
        """coc7e-combat.txt "Armor Examples": armor points deducted from each attack's damage."""
        return {"armor": [{"name": n, "armor": a, "source": f'{weapon_damage.COMBAT} "Armor Examples"'} for n, a in weapon_damage.ARMOR_EXAMPLES]}


@blp.route("/damage-bonus")
class DamageBonus(MethodView):
    @blp.response(200, rules_docs.DamageBonusTable)
    def get(self):
        """The damage bonus and Build by STR+SIZ (participants given str and siz get them)."""
        rows = [{"str_plus_siz": [low, high], "damage_bonus": bonus, "build": build} for low, high, bonus, build in weapons.DAMAGE_BONUS_TABLE]
        return {"damage_bonus": rows, "each_further": {"str_plus_siz": weapons.STR_SIZ_STEP, "damage_bonus": "+1D6", "build": 1}, "source": weapons.DAMAGE_BONUS_SOURCE}
