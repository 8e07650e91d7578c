// Forms for the actions the API offers. Which actions show, and whether they are allowed, come
// from the view (`actions` of the chase, and each participant's as actions.mjs lists them: name,
// method, href, allowed, and why not with the rule it cites); this table says only which inputs each one takes, with
// the API's own defaults, so the Keeper can type the faces of table dice or leave them empty for
// the server's dice. Anything the table does not name goes in the form's "More fields (JSON)".
import { alertProblem, field, h, percent } from "./dom.mjs";

const FACES = { type: "faces", label: "Table dice faces (empty: the server's dice)" };
const PERCENTILE = "tens dice (00-90) then the units die, e.g. 70, 2";
const SAVAGE = "trait die, Wild Die, then each ace's rerolls";
const D6 = "ordinary dice, Wild Die, then each reroll";
const TARGET = { key: "target_id", label: "Target", type: "participant" };
const TRAIT = { key: "trait_die", label: "Trait die", type: "select", options: ["d4", "d6", "d8", "d10", "d12"], default: "d8" };
const DIRECTION = { key: "direction", label: "Direction", type: "select", options: [["1", "toward the front"], ["-1", "toward the rear"]], numeric: true };
const MODE = { key: "mode", label: "Type of chase", type: "select", options: ["foot", "mounted", "vehicular", "airplane", "sailing ship", "jet", "starship"], default: "foot" };
const NOTE = { key: "reason", label: "Reason (for the log)", type: "text", optional: true };

// Inputs of the record's commands and of commands several systems share.
const COMMON = {
  undo: { inputs: [{ key: "count", label: "Actions to undo", type: "number", min: 1, max: 100, default: 1 }, NOTE] },
  rewind: { inputs: [{ key: "to_version", label: "Rewind the chase to version", type: "number", min: 1 }, NOTE] },
  redo: { inputs: [] },
  reveal_seed: { inputs: [] },
  end_chase: { inputs: [{ key: "outcome", label: "Outcome", type: "text", default: "caught" }, { key: "note", label: "Note", type: "text", optional: true }] },
  request_undo: { inputs: [{ key: "count", label: "Actions to undo", type: "number", min: 1, max: 100, default: 1 }, { key: "note", label: "Note to the Keeper", type: "text" }] },
  add_entropy: { inputs: [{ key: "entropy", label: "Entropy for the server dice", type: "text" }] },
  issue_token: { inputs: [{ key: "participant_ids", label: "Participants the player acts for", type: "participants" }] },
  end_turn: { inputs: [] },
  skill_roll: { inputs: [{ key: "skill", label: "Skill", type: "text", default: "Luck" }, { key: "participant_id", label: "Who rolls", type: "participant", optional: true }, { key: "target", label: "Target (if not the participant's)", type: "number", min: 0, max: 999, optional: true }, { ...FACES, key: "table_dice", hint: PERCENTILE }] },
  dice_roll: { inputs: [{ key: "expression", label: "Dice", type: "text", default: "1D6" }, { ...FACES, key: "table_dice" }] },
};

export const FORMS = {
  coc7e: {
    speed_roll: { inputs: [{ ...FACES, key: "table_dice", hint: PERCENTILE }] },
    cut_to_the_chase: { inputs: [{ key: "opening_range", label: "Opening range (locations)", type: "number", min: 1, max: 2, default: 2 }] },
    move: { inputs: [{ key: "locations", label: "Locations to move", type: "number", min: 1, max: 100, default: 1 }] },
    delay: { inputs: [{ key: "until_after", label: "Act after", type: "participant", optional: true }] },
    negotiate: {
      inputs: [
        { key: "approach", label: "Approach", type: "select", options: ["reckless", "cautious"], default: "reckless" },
        { key: "bonus_dice", label: "Bonus dice (cautious)", type: "number", min: 0, max: 2, optional: true },
        { ...FACES, key: "rolls.skill", hint: PERCENTILE },
      ],
      // coc7e-chases.txt "Hazards": the choices on offer, compared before the roll.
      variants: [["reckless", { approach: "reckless" }], ["cautious, 1 bonus die", { approach: "cautious", bonus_dice: 1 }], ["cautious, 2 bonus dice", { approach: "cautious", bonus_dice: 2 }]],
    },
    break_barrier: { inputs: [{ ...FACES, key: "rolls.damage", label: "Damage dice faces (empty: the server's dice)" }] },
    attack: { inputs: [{ key: "target_id", label: "Target", type: "participant" }, { key: "weapon", label: "Weapon", type: "text", optional: true }, { ...FACES, key: "rolls.attack", hint: PERCENTILE }] },
    mishap_roll: { inputs: [{ key: "skill", label: "Skill", type: "text" }, { ...FACES, key: "rolls.skill", hint: PERCENTILE }] },
    begin_fight: { inputs: [{ key: "initiative", label: "Initiative", type: "select", options: ["dex", "dex roll"], default: "dex" }] },
  },
  swade: {
    // swade-chases-reference.txt "SETUP": the type of chase, each unit's Chase Card (0: the rear).
    begin: { inputs: [MODE, { key: "placements", label: "Chase Card of each unit (0: the rear)", type: "per-unit", default: 0 }, { key: "chase_cards", label: "Chase Cards to deal", type: "number", min: 1, max: 54, default: 9 }] },
    change_position: { inputs: [DIRECTION, { ...FACES, key: "table_dice", hint: SAVAGE }] },
    drop_back: { inputs: [{ key: "cards", label: "Cards", type: "number", min: 1, max: 2, default: 1 }] },
    flee: { inputs: [{ ...FACES, key: "table_dice", hint: SAVAGE }] },
    force: { inputs: [TARGET, DIRECTION, { ...FACES, key: "table_dice", hint: SAVAGE }] },
    ram: { inputs: [TARGET, { ...FACES, key: "table_dice", hint: SAVAGE }] },
    attack: { inputs: [TARGET, TRAIT, { key: "target_number", label: "Target number (4, or Parry)", type: "number", min: 1, max: 100, default: 4 }, { ...FACES, key: "table_dice", hint: SAVAGE }] },
    recover: { inputs: [{ ...FACES, key: "table_dice", hint: SAVAGE }] },
    trait_roll: { inputs: [{ key: "participant_id", label: "Who rolls", type: "participant" }, TRAIT, { ...FACES, key: "table_dice", hint: SAVAGE }] },
    damage_roll: { inputs: [TARGET, { key: "expression", label: "Damage", type: "text", default: "2d6" }, { ...FACES, key: "table_dice", hint: "each die left to right, then the aces' rerolls" }] },
    resolve: { inputs: [{ ...FACES, key: "table_dice" }] },
  },
  d6: {
    begin: { inputs: [{ key: "finish", label: "Finish (metres)", type: "number", min: 1, default: 100 }] },
    move: { inputs: [{ key: "movement", label: "Movement", type: "select", options: ["running", "swimming", "climbing", "flying", "leaping"], default: "running" }, { key: "rate", label: "Rate (metres)", type: "number", min: 0.5, step: 0.5, default: 10 }, { ...FACES, key: "table_dice", hint: D6 }] },
    end_round: { inputs: [] },
  },
};
FORMS["coc7e-combat"] = FORMS.coc7e;
FORMS.swd = {
  // swd-chases.txt "Maneuvering Roll" and the Deluxe chase's other actions.
  begin: { inputs: [{ key: "length", label: "Rounds", type: "number", min: 1, max: 1000, default: 5 }, { key: "constant", label: "Chase modifier (Difficult Terrain -2)", type: "number", min: -10, max: 10, default: 0 }] },
  maneuver: { inputs: [{ key: "modifier", label: "Modifier", type: "number", min: -20, max: 20, optional: true }, { ...FACES, key: "table_dice", hint: SAVAGE }] },
  cooperate: { inputs: [{ ...FACES, key: "table_dice", hint: SAVAGE }] },
  attack: FORMS.swade.attack, force: { inputs: [TARGET, { ...FACES, key: "table_dice", hint: SAVAGE }] },
  recover: FORMS.swade.recover, trait_roll: FORMS.swade.trait_roll, damage_roll: FORMS.swade.damage_roll, resolve: FORMS.swade.resolve,
};

export const label = (action) => action.action.replaceAll("_", " ");

export function formOf(system, action) {
  return (FORMS[system] || {})[action.action] || COMMON[action.action] || { inputs: [] };
}

function setPath(body, path, value) {
  const keys = path.split(".");
  let at = body;
  for (const key of keys.slice(0, -1)) at = at[key] = at[key] || {};
  at[keys[keys.length - 1]] = value;
}

function control(spec, chase) {
  if (spec.type === "select") {
    return h("select", { name: spec.key }, spec.options.map((o) => {
      const [value, text] = Array.isArray(o) ? o : [o, o];
      return h("option", { value, selected: value === spec.default }, text);
    }));
  }
  if (spec.type === "per-unit") {  // one number per unit (a participant who moves itself)
    const units = Object.values(chase.participants || {}).filter((p) => p.unit === undefined || p.unit === p.id);
    return h("fieldset", { name: spec.key, class: "per-unit" }, h("legend", {}, spec.label),
      units.map((p) => h("label", { class: "check" }, `${p.name} `, h("input", { type: "number", inputmode: "numeric", dataset: { participant: p.id }, value: spec.default ?? 0 }))));
  }
  if (spec.type === "participant") {
    return h("select", { name: spec.key }, spec.optional ? h("option", { value: "" }, "(default)") : null,
      Object.values(chase.participants || {}).map((p) => h("option", { value: p.id }, p.name)));
  }
  if (spec.type === "participants") {
    return h("select", { name: spec.key, multiple: true, size: Math.min(6, Object.keys(chase.participants || {}).length || 1) },
      Object.values(chase.participants || {}).map((p) => h("option", { value: p.id }, p.name)));
  }
  if (spec.type === "number") return h("input", { name: spec.key, type: "number", inputmode: spec.step ? "decimal" : "numeric", min: spec.min, max: spec.max, step: spec.step, value: spec.default ?? "" });
  if (spec.type === "faces") return h("input", { name: spec.key, type: "text", inputmode: "numeric", placeholder: spec.hint || "faces, e.g. 4, 6", autocomplete: "off" });
  return h("input", { name: spec.key, type: "text", value: spec.default ?? "" });
}

function readBody(form, specs) {
  const body = {};
  for (const spec of specs) {
    const el = form.elements.namedItem(spec.key);  // not form.elements[key]: "length" is the collection's own
    if (spec.type === "per-unit") {
      setPath(body, spec.key, Object.fromEntries([...form.querySelectorAll(`fieldset[name=${spec.key}] input`)].map((i) => [i.dataset.participant, Number(i.value)])));
      continue;
    }
    if (spec.type === "participants") { setPath(body, spec.key, [...el.selectedOptions].map((o) => o.value)); continue; }
    const raw = el.value.trim();
    if (raw === "") continue;
    if (spec.type === "number" || spec.numeric) setPath(body, spec.key, Number(raw));
    else if (spec.type === "faces") setPath(body, spec.key, raw.split(/[\s,]+/).filter(Boolean).map(Number));
    else setPath(body, spec.key, raw);
  }
  const more = form.elements.more.value.trim();
  if (more) Object.assign(body, JSON.parse(more));
  return body;
}

function oddsTable(label, answer) {
  const first = (answer.rolls || [])[0];
  const rows = first && first.odds ? Object.entries(first.odds.outcomes) : [];
  return h("div", { class: "odds" },
    h("h4", {}, label, first && first.odds ? ` — success ${percent(first.odds.success)}` : ""),
    rows.length ? h("table", { "aria-label": `Odds: ${label}` },
      h("tbody", {}, rows.map(([name, o]) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, percent(o.p)), h("td", { class: "mono" }, o.exact))))) : h("p", {}, "No roll."),
    (answer.outcomes || []).map((o) => h("p", {}, `${o.event}: `, Object.entries(o.odds.outcomes).map(([n, v]) => `${n} ${percent(v.p)}`).join(", "))));
}

// The form of one action: its inputs, the odds of the choices on offer (a dry run of each: the
// API works them out and records nothing), and the button that does it.
export function actionForm(action, who, chase, api, done) {
  const spec = formOf(chase.system, action);
  const odds = h("div", { class: "odds-box", "aria-live": "polite" });
  const rolls = spec.inputs.some((s) => s.type === "faces");  // only a command that rolls has a dry run
  const form = h("form", { class: "action-form", "aria-label": `${label(action)}${who ? ` for ${who}` : ""}` },
    h("h3", {}, `${label(action)}${who ? ` — ${who}` : ""}`),
    spec.inputs.map((s) => (s.type === "per-unit" ? control(s, chase) : field(s.label, control(s, chase)))),
    field("More fields (JSON)", h("textarea", { name: "more", rows: 2, placeholder: "{}" })),
    h("div", { class: "buttons" },
      rolls ? h("button", { type: "button", class: "secondary", onclick: async () => {
        odds.replaceChildren(h("p", {}, "Working out the odds…"));
        const body = readBody(form, spec.inputs);
        const variants = spec.variants || [["as entered", {}]];
        const tables = [];
        for (const [label, patch] of variants) {
          try { tables.push(oddsTable(label, await api.post(`${action.href}?dry_run=true`, { ...body, ...patch }))); }
          catch (error) { tables.push(h("p", {}, `${label}: ${error.body && error.body.detail ? error.body.detail : error.message}`)); }
        }
        odds.replaceChildren(...tables);
      } }, "Odds") : null,
      h("button", { type: "submit", class: "primary" }, `Do: ${label(action)}`),
      h("button", { type: "button", class: "secondary", onclick: () => done(null) }, "Cancel")),
    odds);
  form.addEventListener("keydown", (event) => { if (event.key === "Escape") done(null); });  // Esc: put it away
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await api.call(action.method || "POST", action.href, readBody(form, spec.inputs));
      alertProblem(null);
      done(answer.data);
    } catch (error) { alertProblem(error); }
  });
  return form;
}

// Allowed actions as buttons; refused ones disabled, with the API's reason as the button's
// accessible description (and shown beside it, with the rule it cites), folded away under
// "Not now" so that a phone shows what can be done first.
let whyCount = 0;

function actionItem(action, onPick) {
  const why = action.allowed ? null : `${action.why || "not allowed now"}${action.rule ? ` (${action.rule})` : ""}`;
  const whyId = why ? `why-${++whyCount}` : null;
  return h("li", {},
    h("button", { type: "button", class: action.allowed ? "action" : "action refused", disabled: !action.allowed,
      "aria-describedby": whyId, dataset: { action: action.action }, onclick: () => onPick(action) }, label(action)),
    why ? h("span", { id: whyId, class: "why" }, why) : null);
}

export function actionButtons(actions, who, onPick) {
  const allowed = (actions || []).filter((a) => a.allowed);
  const refused = (actions || []).filter((a) => !a.allowed);
  return h("div", {},
    h("ul", { class: "actions", "aria-label": `Actions${who ? ` of ${who}` : ""}` }, allowed.map((a) => actionItem(a, onPick))),
    refused.length ? h("details", { class: "not-now" }, h("summary", {}, `Not now (${refused.length})`),
      h("ul", { class: "actions", "aria-label": `Actions not open now${who ? ` to ${who}` : ""}` }, refused.map((a) => actionItem(a, onPick)))) : null);
}
