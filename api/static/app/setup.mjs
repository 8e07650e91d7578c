// The Keeper's set-up forms: participants (each system's own fields; Call of Cthulhu vehicles
// from the reference charts the API lists), locations and obstacles (Call of Cthulhu), and a
// command box for anything else the API offers (every endpoint is in /docs).
import { alertProblem, field, h, say } from "./dom.mjs";

const ADD = {
  coc7e: { path: "/participants", fields: [["role", "Role", ["quarry", "pursuer"]], ["dex", "DEX", 50], ["con", "CON", 50], ["mov", "MOV", 8]] },
  "coc7e-combat": { path: "/participants", fields: [["role", "Side", ""], ["dex", "DEX", 50], ["con", "CON", 50], ["mov", "MOV", 8]] },
  swade: { path: "/swade/participants", fields: [["role", "Role", ["chaser", "quarry"]], ["maneuver_die", "Maneuver die", ["d4", "d6", "d8", "d10", "d12"]]] },
  swd: { path: "/swd/participants", fields: [["role", "Role", ["chaser", "quarry"]], ["maneuver_die", "Maneuver die", ["d4", "d6", "d8", "d10", "d12"]]] },
  d6: { path: "/d6/participants", fields: [["role", "Role", ["pursuer", "quarry", "racer"]], ["move", "Move (m)", 10], ["physique", "Physique", "3D"]] },
};

function input(key, spec) {
  if (Array.isArray(spec)) return h("select", { name: key }, spec.map((o) => h("option", { value: o }, o)));
  if (typeof spec === "number") return h("input", { name: key, type: "number", inputmode: "numeric", value: spec });
  return h("input", { name: key, type: "text", value: spec });
}

async function submit(form, run) {
  try { await run(); alertProblem(null); form.reset(); } catch (error) { alertProblem(error); }
}

function json(text) { return text.trim() ? JSON.parse(text) : {}; }

export function addParticipantForm(api, chase, refresh) {
  const spec = ADD[chase.system] || ADD.coc7e;
  const base = `/chases/${chase.chase_id}`;
  const chart = h("select", { name: "chart_vehicle" }, h("option", { value: "" }, "(a character)"));
  if (chase.system === "coc7e") {
    api.get("/rules/coc7e/vehicles").then(({ vehicles }) => chart.append(...vehicles.map((v) => h("option", { value: v.name }, `${v.name} (${v.chart})`)))).catch(() => {});
  }
  const form = h("form", { "aria-label": "Add a participant" },
    field("Name", h("input", { name: "name", type: "text", required: true, maxlength: 200 })),
    spec.fields.map(([key, label, value]) => field(label, input(key, value))),
    chase.system === "coc7e" ? field("Vehicle from the reference charts", chart) : null,
    chase.system === "coc7e" ? field("Era", input("era", ["modern", "1920s"])) : null,
    field("More fields (JSON)", h("textarea", { name: "more", rows: 2, placeholder: '{"skills": {"Climb": 40}}' })),
    h("button", { type: "submit", class: "primary" }, "Add participant"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, async () => {
      const body = { name: form.elements.name.value };
      for (const [key, , value] of spec.fields) {
        const raw = form.elements[key].value;
        if (raw !== "") body[key] = typeof value === "number" ? Number(raw) : raw;
      }
      if (chase.system === "coc7e" && form.elements.chart_vehicle.value) {
        Object.assign(body, { kind: "vehicle", chart_vehicle: form.elements.chart_vehicle.value, era: form.elements.era.value });
        for (const key of ["dex", "con", "mov"]) delete body[key];
      }
      Object.assign(body, json(form.elements.more.value));
      await api.post(`${base}${spec.path}`, body);
      say(`${body.name} added.`);
      await refresh();
    });
  });
  return form;
}

export function locationForm(api, chase, refresh) {
  const form = h("form", { "aria-label": "Name a location" },
    field("Location number", h("input", { name: "index", type: "number", min: 0, required: true, inputmode: "numeric" })),
    field("Location name", h("input", { name: "lname", type: "text", required: true, maxlength: 200 })),
    h("button", { type: "submit" }, "Name location"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, async () => { await api.send("PUT", `/chases/${chase.chase_id}/locations/${Number(form.elements.index.value)}`, { name: form.elements.lname.value }); await refresh(); });
  });
  return form;
}

export function obstacleForm(api, chase, refresh) {
  const form = h("form", { "aria-label": "Place a hazard or barrier" },
    field("Kind", input("kind", ["hazard", "barrier"])),
    field("Between locations (e.g. 3, 4)", h("input", { name: "between", type: "text", required: true })),
    field("Name", h("input", { name: "oname", type: "text" })),
    field("Skills (comma-separated)", h("input", { name: "skills", type: "text", placeholder: "Climb, Jump" })),
    field("Difficulty", input("difficulty", ["regular", "hard", "extreme"])),
    field("More fields (JSON)", h("textarea", { name: "more", rows: 2, placeholder: '{"hit_points": 10}' })),
    h("button", { type: "submit" }, "Place"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, async () => {
      const body = { kind: form.elements.kind.value, between: form.elements.between.value.split(/[\s,]+/).filter(Boolean).map(Number), difficulty: form.elements.difficulty.value };
      if (form.elements.oname.value) body.name = form.elements.oname.value;
      const skills = form.elements.skills.value.split(",").map((s) => s.trim()).filter(Boolean);
      if (skills.length) body.skills = skills;
      Object.assign(body, json(form.elements.more.value));
      await api.post(`/chases/${chase.chase_id}/obstacles`, body);
      await refresh();
    });
  });
  return form;
}

// Any command of the API (each system's begin, resolve, conditions...): method, path under the
// chase, JSON body. The API checks it as it checks every client.
export function commandBox(api, chase, refresh) {
  const form = h("form", { "aria-label": "Any command" },
    field("Method", input("method", ["POST", "PUT", "PATCH", "DELETE"])),
    field("Path under the chase", h("input", { name: "path", type: "text", required: true, placeholder: chase.system === "swade" || chase.system === "swd" || chase.system === "d6" ? `/${chase.system}/begin` : "/skill-rolls" })),
    field("Body (JSON)", h("textarea", { name: "body", rows: 3, placeholder: "{}" })),
    h("button", { type: "submit" }, "Send"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, async () => {
      const path = form.elements.path.value.trim().replace(/^\/?/, "/");
      await api.send(form.elements.method.value, `/chases/${chase.chase_id}${path}`, json(form.elements.body.value));
      say("Done.");
      await refresh();
    });
  });
  return form;
}
