// The track view drawn for people: the chase's state line, its locations (Call of Cthulhu), its
// cards (Savage Worlds), positions (D6) and every participant. Drawn from the view alone; the
// page works nothing out.
import { h, short } from "./dom.mjs";

export function nameOf(chase, id) {
  const p = (chase.participants || {})[id];
  return p ? p.name : short(id);
}

function card(c) {
  if (!c) return "";
  if (typeof c === "string") return c;
  if (c.rank || c.suit) return `${c.rank || ""}${c.suit ? ` of ${c.suit}` : ""}`;
  return c.card || c.name || JSON.stringify(c);
}

export function stateLine(chase) {
  const turn = chase.turn && chase.turn.participant_id ? chase.turn.participant_id : chase.whose_turn;
  return h("dl", { class: "state", "aria-label": "State of the chase" },
    h("dt", {}, "System"), h("dd", {}, chase.system),
    h("dt", {}, "Phase"), h("dd", { "data-test": "phase" }, chase.phase + (chase.outcome ? ` (${chase.outcome})` : "")),
    h("dt", {}, "Round"), h("dd", { "data-test": "round" }, chase.round),
    h("dt", {}, "Turn"), h("dd", { "data-test": "turn" }, turn ? nameOf(chase, turn) : "–"),
    h("dt", {}, "Version"), h("dd", { "data-test": "version" }, chase.version),
    h("dt", {}, "Chain head"), h("dd", { title: chase.chain_head, class: "mono" }, short(chase.chain_head)));
}

function locations(chase) {
  if (!chase.locations || chase.locations.length === 0) return null;
  const byId = Object.fromEntries((chase.obstacles || []).map((o) => [o.id, o]));
  const obstacleText = (ahead) => {
    const o = typeof ahead === "string" ? byId[ahead] : ahead;
    if (!o) return null;
    const skills = o.skills && o.skills.length ? ` (${o.skills.join(", ")}, ${o.difficulty})` : "";
    const hp = o.hit_points !== null && o.hit_points !== undefined ? `, ${o.hit_points} HP` : "";
    return `${o.kind}${o.name ? `: ${o.name}` : ""}${skills}${hp}`;
  };
  return h("ol", { class: "track", "aria-label": "Locations", "data-test": "locations" },
    chase.locations.map((loc) => h("li", { class: "location", dataset: { index: loc.index } },
      h("span", { class: "loc-name" }, loc.name || `Location ${loc.index}`),
      h("ul", { class: "people", "aria-label": `At location ${loc.index}` },
        (loc.participants || []).map((id) => {
          const p = chase.participants[id] || {};
          return h("li", { class: `chip ${p.role || ""}`, dataset: { participant: id } }, nameOf(chase, id));
        })),
      loc.obstacle_ahead ? h("span", { class: "obstacle", role: "note" }, "ahead: ", obstacleText(loc.obstacle_ahead)) : null)));
}

function cards(chase) {
  const row = chase.chase_cards || chase.cards || chase.action_cards;
  if (!Array.isArray(row) || row.length === 0) return null;
  return h("ol", { class: "cards", "aria-label": "Cards" },
    row.map((c, i) => h("li", { class: "playing-card" },
      h("span", { class: "card-face" }, card(c.card || c)),
      c.participant_id ? h("span", {}, nameOf(chase, c.participant_id)) : null,
      Array.isArray(c.participants) ? h("span", {}, c.participants.map((id) => nameOf(chase, id)).join(", ")) : null,
      c.advantage ? h("span", {}, " advantage") : null,
      h("span", { class: "sr-only" }, ` card ${i + 1}`))));
}

const COLUMNS = [
  ["role", "Role"], ["status", "Status"], ["location", "Location"], ["position", "Position (m)"],
  ["speed_mov", "MOV"], ["movement_actions", "Movement actions"], ["hp_left", "HP"],
  ["maneuver_die", "Maneuver"], ["wounds", "Wounds"], ["bennies", "Bennies"], ["move", "Move"],
];

function participants(chase) {
  const rows = Object.values(chase.participants || {});
  const used = COLUMNS.filter(([key]) => rows.some((p) => p[key] !== undefined && p[key] !== null));
  return h("div", { class: "scroll" }, h("table", { class: "people-table", "aria-label": "Participants" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), used.map(([, label]) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, rows.map((p) => h("tr", { dataset: { participant: p.id } },
      h("th", { scope: "row" }, p.name),
      used.map(([key]) => h("td", { dataset: { field: key } }, p[key] === null || p[key] === undefined ? "–" : String(p[key]))))))));
}

export function renderTrack(chase) {
  const pending = chase.pending && chase.pending.length ? h("p", { class: "pending" }, `Follow-ups to resolve: ${chase.pending.length}`) : null;
  const mishaps = chase.mishaps && chase.mishaps.length ? h("p", { class: "pending" }, `Mishaps for the Keeper: ${chase.mishaps.length}`) : null;
  const caught = chase.caught_up && chase.caught_up.length
    ? h("p", { class: "caught" }, chase.caught_up.map((c) => `${nameOf(chase, c.pursuer_id)} caught ${nameOf(chase, c.quarry_id)} (round ${c.round})`).join("; "))
    : null;
  return h("div", { class: "track-view", "data-version": chase.version },
    stateLine(chase), locations(chase), cards(chase), caught, pending, mishaps, participants(chase));
}

const BUILD = [["chart_vehicle", "chart"], ["build", "Build"], ["starting_build", "of"], ["condition", "condition"], ["armor", "armor"],
  ["wounds", "wounds"], ["toughness", "toughness"], ["status", "status"]];

export function renderVehicles(view) {
  const vehicles = (view && view.vehicles) || [];
  if (vehicles.length === 0) return h("p", {}, "No vehicles.");
  return h("ul", { class: "vehicles", "aria-label": "Vehicles" }, vehicles.map((v) => h("li", { dataset: { vehicle: v.id } },
    h("strong", {}, v.name), ": ",
    BUILD.filter(([k]) => v[k] !== undefined && v[k] !== null && typeof v[k] !== "object").map(([k, name]) => `${name} ${v[k]}`).join(", "),
    Array.isArray(v.build_losses) && v.build_losses.length ? ` (Build lost: ${v.build_losses.map((l) => `${l.amount ?? l.build ?? ""} ${l.cause || ""}`.trim()).join("; ")})` : "",
    Array.isArray(v.occupants) && v.occupants.length ? ` — aboard: ${v.occupants.map((o) => o.name || o).join(", ")}` : "")));
}
