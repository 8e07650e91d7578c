// The roll log: every roll with its exact odds (as the API works them out from the recorded
// roll) and its verification state in this browser: table dice were entered by a person; a
// server roll is recomputed here once its seed is revealed (verifying.mjs).
import { h, percent } from "./dom.mjs";
import { nameOf } from "./track.mjs";

function outcomeOf(roll) {
  return roll.level || roll.outcome || (roll.success === true ? "success" : roll.success === false ? "failure" : "");
}

function resultOf(roll) {
  if (roll.result !== undefined) return roll.result;
  if (roll.total !== undefined) return roll.total;
  if (Array.isArray(roll.totals)) return roll.totals.join(", ");
  if (roll.card) return typeof roll.card === "string" ? roll.card : JSON.stringify(roll.card);
  return "";
}

// Each die drawn as a die: a percentile roll's tens dice (a dropped bonus or penalty die faded)
// and its units die; other rolls' dice with their size named.
function die(face, name, kept = true) {
  return h("span", { class: kept ? "die" : "die dropped", title: name, "aria-label": `${name} ${face}${kept ? "" : " (dropped)"}` }, String(face));
}

function facesOf(roll) {
  if (Array.isArray(roll.tens)) return [...roll.tens.map((t) => die(String(t.face).padStart(2, "0"), "tens die", t.kept !== false)), die(roll.units, "units die")];
  if (Array.isArray(roll.dice)) return roll.dice.map((d) => die(d.face, d.die || "die", d.kept !== false));
  return "";
}

function revealedEpochs(chase) {
  return new Set((chase.revealed_seeds || []).map((s) => (s && typeof s === "object" ? s.epoch : s)));
}

export function verificationState(row, chase, verified) {
  const source = row.roll.source || {};
  if (source.kind === "table" || row.source === "table") return `table dice (entered by ${source.entered_by || "a person"})`;
  if (!revealedEpochs(chase).has(source.epoch ?? 0)) return "seed not revealed yet";
  if (verified === true) return "recomputed in this browser ✓";
  if (verified === false) return "verification failed ✗";
  return "seed revealed: verify to check";
}

export function renderRolls(rolls, chase, verified = null) {
  if (!rolls.length) return h("p", {}, "No rolls yet.");
  return h("div", { class: "scroll" }, h("table", { class: "rolls", "aria-label": "Roll log" },
    h("thead", {}, h("tr", {}, ["#", "Who", "For", "Dice", "Result", "Outcome", "Chance of it", "Success chance", "Verification"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rolls.map((row) => {
      const roll = row.roll || {};
      const odds = row.odds;
      const observed = odds && odds.observed && odds.outcomes[odds.observed] ? odds.outcomes[odds.observed].p : null;
      return h("tr", { class: row.undone ? "undone" : "", dataset: { sequence: row.sequence } },
        h("td", {}, row.sequence),
        h("td", {}, row.participant_id ? nameOf(chase, row.participant_id) : "Keeper"),
        h("td", {}, row.purpose || roll.purpose || ""),
        h("td", { class: "mono dice" }, facesOf(roll)),
        h("td", {}, resultOf(roll)),
        h("td", {}, outcomeOf(roll), row.undone ? " (undone)" : ""),
        h("td", {}, percent(observed)),
        h("td", {}, odds ? percent(odds.success) : "–"),
        h("td", { dataset: { field: "verification" } }, verificationState(row, chase, verified)));
    }))));
}
