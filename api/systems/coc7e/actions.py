"""Where each Call of Cthulhu command is sent, and who may send it (api/action_routes.py): the
track view's ``actions`` name these, with what the domain's guards say of each now
(domain/rules/coc7e/affordances.py). Each command's ``who`` is the table's its command refuses by
(application/systems/coc7e/permissions.py)."""
from __future__ import annotations

from api.action_routes import chase_routes, participant_routes
from application.systems.coc7e.permissions import CHASE as CHASE_WHO, PARTICIPANT as WHO

_P = "/participants/{participant_id}"

PARTICIPANT = participant_routes({
    "speed_roll": ("POST", f"{_P}/speed-roll"),
    "move": ("POST", f"{_P}/move"),
    "delay": ("POST", f"{_P}/delay"),
    "end_turn": ("POST", f"{_P}/end-turn"),
    "negotiate": ("POST", f"{_P}/negotiate"),
    "break_barrier": ("POST", f"{_P}/break-barrier"),
    "attack": ("POST", f"{_P}/attack"),
    "fire": ("POST", f"{_P}/fire"),
    "aim": ("POST", f"{_P}/aim"),
    "reload": ("POST", f"{_P}/reload"),
    "mishap_roll": ("POST", f"{_P}/mishap-roll"),
    "consequences": ("POST", f"{_P}/consequences"),
    "damage": ("POST", f"{_P}/damage"),
    "dying_roll": ("POST", f"{_P}/dying-roll"),
    "first_aid": ("POST", f"{_P}/first-aid"),
    "medicine": ("POST", f"{_P}/medicine"),
    "recovery": ("POST", f"{_P}/recovery"),
    "condition": ("POST", f"{_P}/condition"),
    # a fight (coc7e-combat.txt; api/systems/coc7e/encounters.py): joining names the combatant in its body
    "join_fight": ("POST", "/fight/join"),
    "ready_firearm": ("POST", f"{_P}/ready-firearm"),
    "flee": ("POST", f"{_P}/flee"),
    # optional rules (coc7e-chases.txt part 5; api/systems/coc7e/optional_rules.py)
    "choose_route": ("POST", f"{_P}/choose-route"),
    "join": ("POST", f"{_P}/join"),
    "leave": ("POST", f"{_P}/leave"),
    "switch_mode": ("POST", f"{_P}/switch-mode"),
    "board": ("POST", f"{_P}/board"),
    "alight": ("POST", f"{_P}/alight"),
    "substitute_skill": ("POST", f"{_P}/substitute-skill"),
    "accelerate": ("POST", f"{_P}/accelerate"),
    "visibility": ("POST", f"{_P}/visibility"),
    "navigate": ("POST", f"{_P}/navigate"),
    "keep_control": ("POST", f"{_P}/keep-control"),
    "attack_on_the_move": ("POST", f"{_P}/attack-on-the-move"),
    "fire_on_the_move": ("POST", f"{_P}/fire-on-the-move"),
    "shoot_tire": ("POST", f"{_P}/shoot-tire"),
    "create_hazard": ("POST", f"{_P}/create-hazard"),
    "fly_over": ("POST", f"{_P}/fly-over"),
    "hide": ("POST", f"{_P}/hide"),
    "follow_trail": ("POST", f"{_P}/follow-trail"),
}, WHO)
CHASE = chase_routes({
    "add_participant": ("POST", "/participants"),
    "cut_to_the_chase": ("POST", "/cut-to-the-chase"),
    "begin_fight": ("POST", "/fight"),
    "skill_roll": ("POST", "/skill-rolls"),
    "dice_roll": ("POST", "/dice-rolls"),
    "place_obstacle": ("POST", "/obstacles"),
    "random_hazards": ("POST", "/random-hazards"),
    "place_fork": ("POST", "/forks"),
    "split": ("POST", "/split"),
    "call_sudden_hazard": ("POST", "/sudden-hazards"),
    "place_sudden_hazard": ("POST", "/sudden-hazards/placement"),
    "change_optional_rules": ("PUT", "/optional-rules"),
}, CHASE_WHO)
ACTION_ROUTES = {"coc7e": (PARTICIPANT, CHASE), "coc7e-combat": (PARTICIPANT, CHASE)}
