"""Where each Call of Cthulhu command is sent, and who may send it (api/affordances.py): the
track view's ``actions`` name these, with what the domain's guards say of each now
(domain/rules/coc7e/affordances.py). ``who``: "player" (a player for their own participant),
"healer" (a player for the healer they name: any player with a participant), "keeper"."""
from __future__ import annotations

from api.affordances import Route

_P = "/participants/{participant_id}"

PARTICIPANT = {
    "speed_roll": Route("POST", f"{_P}/speed-roll", "player"),
    "move": Route("POST", f"{_P}/move", "player"),
    "delay": Route("POST", f"{_P}/delay", "player"),
    "end_turn": Route("POST", f"{_P}/end-turn", "player"),
    "negotiate": Route("POST", f"{_P}/negotiate", "player"),
    "break_barrier": Route("POST", f"{_P}/break-barrier", "player"),
    "attack": Route("POST", f"{_P}/attack", "player"),
    "fire": Route("POST", f"{_P}/fire", "player"),
    "aim": Route("POST", f"{_P}/aim", "player"),
    "reload": Route("POST", f"{_P}/reload", "player"),
    "mishap_roll": Route("POST", f"{_P}/mishap-roll", "player"),
    "consequences": Route("POST", f"{_P}/consequences", "keeper"),
    "damage": Route("POST", f"{_P}/damage", "keeper"),
    "dying_roll": Route("POST", f"{_P}/dying-roll", "player"),
    "first_aid": Route("POST", f"{_P}/first-aid", "healer"),
    "medicine": Route("POST", f"{_P}/medicine", "healer"),
    "recovery": Route("POST", f"{_P}/recovery", "keeper"),
    "condition": Route("POST", f"{_P}/condition", "keeper"),
    # a fight (coc7e-combat.txt; api/systems/coc7e/encounters.py): joining names the combatant in its body
    "join_fight": Route("POST", "/fight/join", "keeper"),
    "ready_firearm": Route("POST", f"{_P}/ready-firearm", "player"),
    "flee": Route("POST", f"{_P}/flee", "player"),
    # optional rules (coc7e-chases.txt part 5; api/systems/coc7e/optional_rules.py)
    "choose_route": Route("POST", f"{_P}/choose-route", "player"),
    "join": Route("POST", f"{_P}/join", "keeper"),
    "leave": Route("POST", f"{_P}/leave", "keeper"),
    "switch_mode": Route("POST", f"{_P}/switch-mode", "keeper"),
    "board": Route("POST", f"{_P}/board", "player"),
    "alight": Route("POST", f"{_P}/alight", "player"),
    "substitute_skill": Route("POST", f"{_P}/substitute-skill", "keeper"),
    "accelerate": Route("POST", f"{_P}/accelerate", "player"),
    "visibility": Route("POST", f"{_P}/visibility", "keeper"),
    "navigate": Route("POST", f"{_P}/navigate", "player"),
    "keep_control": Route("POST", f"{_P}/keep-control", "player"),
    "attack_on_the_move": Route("POST", f"{_P}/attack-on-the-move", "player"),
    "fire_on_the_move": Route("POST", f"{_P}/fire-on-the-move", "player"),
    "shoot_tire": Route("POST", f"{_P}/shoot-tire", "player"),
    "create_hazard": Route("POST", f"{_P}/create-hazard", "player"),
    "fly_over": Route("POST", f"{_P}/fly-over", "player"),
    "hide": Route("POST", f"{_P}/hide", "keeper"),
    "follow_trail": Route("POST", f"{_P}/follow-trail", "keeper"),
}
CHASE = {
    "add_participant": Route("POST", "/participants", "keeper"),
    "cut_to_the_chase": Route("POST", "/cut-to-the-chase", "keeper"),
    "begin_fight": Route("POST", "/fight", "keeper"),
    "skill_roll": Route("POST", "/skill-rolls", "player"),
    "dice_roll": Route("POST", "/dice-rolls", "player"),
    "place_obstacle": Route("POST", "/obstacles", "keeper"),
    "random_hazards": Route("POST", "/random-hazards", "keeper"),
    "place_fork": Route("POST", "/forks", "keeper"),
    "split": Route("POST", "/split", "keeper"),
    # either side calls (the Keeper's side: the Keeper); the side that won the Luck roll places
    "call_sudden_hazard": Route("POST", "/sudden-hazards", "player"),
    "place_sudden_hazard": Route("POST", "/sudden-hazards/placement", "player"),
    "change_optional_rules": Route("PUT", "/optional-rules", "keeper"),
}
ACTION_ROUTES = {"coc7e": (PARTICIPANT, CHASE), "coc7e-combat": (PARTICIPANT, CHASE)}
