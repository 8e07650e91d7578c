// Forms for the actions the API offers. Which actions show, and whether they are allowed, come
// from the view (`actions` of the chase and of each participant: name, method, href, allowed,
// and why not with the rule it cites); this table says only which inputs each one takes, with
// the API's own defaults, so the Keeper can type the faces of table dice or leave them empty for
// the server's dice. Anything the table does not name goes in the form's "More fields (JSON)".
import { alertProblem, field, h, percent } from "./dom.mjs";

const FACES = { type: "faces", label: "Table dice faces (empty: the server's dice)" };
const PERCENTILE = "tens dice (00-90) then the units die, e.g. 70, 2";

export const FORMS = {
  "speed-roll": { inputs: [{ ...FACES, key: "table_dice", hint: PERCENTILE }] },
  "cut-to-the-chase": { inputs: [{ key: "opening_range", label: "Opening range (locations)", type: "number", min: 1, max: 2, default: 2 }] },
  move: { inputs: [{ key: "locations", label: "Locations to move", type: "number", min: 1, max: 100, default: 1 }] },
  delay: { inputs: [{ key: "until_after", label: "Act after", type: "participant", optional: true }] },
  negotiate: {
    inputs: [
      { key: "approach", label: "Approach", type: "select", options: ["reckless", "cautious"], default: "reckless" },
      { key: "bonus_dice", label: "Bonus dice (cautious)", type: "number", min: 0, max: 2, optional: true },
      { ...FACES, key: "rolls.skill", hint: PERCENTILE },
    ],
    // "Hazards": the choices on offer, compared before the roll.
    variants: [["reckless", { approach: "reckless" }], ["cautious, 1 bonus die", { approach: "cautious", bonus_dice: 1 }], ["cautious, 2 bonus dice", { approach: "cautious", bonus_dice: 2 }]],
  },
  "break-barrier": { inputs: [{ ...FACES, key: "rolls.damage", label: "Damage dice faces (empty: the server's dice)" }] },
  attack: { inputs: [{ key: "target_id", label: "Target", type: "participant" }, { ...FACES, key: "rolls.attack", hint: PERCENTILE }] },
  end: { inputs: [{ key: "outcome", label: "Outcome", type: "text", default: "caught" }, { key: "note", label: "Note", type: "text", optional: true }] },
  "end-turn": { inputs: [] },
  "trait-rolls": { inputs: [{ ...FACES, key: "table_dice", hint: "trait die, Wild Die, then each ace's rerolls" }] },
  maneuver: { inputs: [{ ...FACES, key: "table_dice", hint: "trait die, Wild Die, then each ace's rerolls" }] },
};

function nameFor(action) {
  const tail = String(action.href || "").split("/").filter(Boolean).pop();
  return FORMS[action.action] ? action.action : tail;
}

function setPath(body, path, value) {
  const keys = path.split(".");
  let at = body;
  for (const key of keys.slice(0, -1)) at = at[key] = at[key] || {};
  at[keys[keys.length - 1]] = value;
}

function control(spec, chase) {
  if (spec.type === "select") return h("select", { name: spec.key }, spec.options.map((o) => h("option", { value: o, selected: o === spec.default }, o)));
  if (spec.type === "participant") {
    return h("select", { name: spec.key }, spec.optional ? h("option", { value: "" }, "(default)") : null,
      Object.values(chase.participants || {}).map((p) => h("option", { value: p.id }, p.name)));
  }
  if (spec.type === "number") return h("input", { name: spec.key, type: "number", inputmode: "numeric", min: spec.min, max: spec.max, value: spec.default ?? "" });
  if (spec.type === "faces") return h("input", { name: spec.key, type: "text", inputmode: "numeric", placeholder: spec.hint || "faces, e.g. 4, 6", autocomplete: "off" });
  return h("input", { name: spec.key, type: "text", value: spec.default ?? "" });
}

function readBody(form, specs) {
  const body = {};
  for (const spec of specs) {
    const el = form.elements[spec.key];
    const raw = el.value.trim();
    if (raw === "") continue;
    if (spec.type === "number") setPath(body, spec.key, Number(raw));
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
  const spec = FORMS[nameFor(action)] || { inputs: [] };
  const odds = h("div", { class: "odds-box", "aria-live": "polite" });
  const form = h("form", { class: "action-form", "aria-label": `${action.action}${who ? ` for ${who}` : ""}` },
    h("h3", {}, `${action.action}${who ? ` — ${who}` : ""}`),
    spec.inputs.map((s) => field(s.label, control(s, chase))),
    field("More fields (JSON)", h("textarea", { name: "more", rows: 2, placeholder: "{}" })),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "secondary", onclick: async () => {
        odds.replaceChildren(h("p", {}, "Working out the odds…"));
        const body = readBody(form, spec.inputs);
        const variants = spec.variants || [["as entered", {}]];
        const tables = [];
        for (const [label, patch] of variants) {
          try { tables.push(oddsTable(label, await api.post(`${action.href}?dry_run=true`, { ...body, ...patch }))); }
          catch (error) { tables.push(h("p", {}, `${label}: ${error.body && error.body.detail ? error.body.detail : error.message}`)); }
        }
        odds.replaceChildren(...tables);
      } }, "Odds"),
      h("button", { type: "submit", class: "primary" }, `Do: ${action.action}`),
      h("button", { type: "button", class: "secondary", onclick: () => done(null) }, "Cancel")),
    odds);
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
// accessible description (and shown beside it, with the rule it cites).
export function actionButtons(actions, who, onPick) {
  return h("ul", { class: "actions", "aria-label": `Actions${who ? ` of ${who}` : ""}` },
    (actions || []).map((action, i) => {
      const why = action.allowed ? null : `${action.why || "not allowed now"}${action.rule ? ` (${action.rule})` : ""}`;
      const whyId = why ? `why-${Math.random().toString(36).slice(2)}-${i}` : null;
      return h("li", {},
        h("button", { type: "button", class: action.allowed ? "action" : "action refused", disabled: !action.allowed,
          "aria-describedby": whyId, dataset: { action: action.action }, onclick: () => onPick(action) }, action.action),
        why ? h("span", { id: whyId, class: "why" }, why) : null);
    }));
}
