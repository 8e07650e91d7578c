// The analytics pages: luck, levels of success against expected, dice fairness, as the API
// reports them, with its charts (drawn by the server; fetched with the token and shown from
// blobs, so the token never goes in an image URL). A chase's own, and the Keeper's session:
// a session this browser starts with the chase, to which the Keeper's other chases can be added.
import { alertProblem, fill, h, percent, section } from "./dom.mjs";
import { client, remember, remembered } from "./http.mjs";

const CHARTS = [["luck", "Luck over time"], ["levels", "Levels of success against expected"], ["faces", "Die faces against the uniform line"]];

async function chart(api, path, kind, title) {
  const response = await fetch(`${path}/${kind}.svg`, { headers: { Authorization: `Bearer ${api.token}` } });
  if (!response.ok) return h("p", {}, `${title}: ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  return h("figure", {}, h("img", { src: url, alt: title, class: "chart" }), h("figcaption", {}, title));
}

function fixed(value) {
  return value === undefined || value === null ? "–" : Number(value).toFixed(2);
}

async function reportView(api, reportPath, chartsPath, prefix) {
  const report = await api.get(reportPath);
  const t = report.totals || {};
  const luck = t.luck || {};
  const levels = Object.entries(t.levels || {});
  const figures = await Promise.all(CHARTS.map(([kind, title]) => chart(api, chartsPath, kind, title)));
  return [
    section("Luck", `${prefix}-luck`, h("dl", { class: "state" },
      h("dt", {}, "Chases"), h("dd", {}, report.scope && report.scope.chases ? report.scope.chases.length : 1),
      h("dt", {}, "Rolls"), h("dd", { "data-test": "rolls" }, t.rolls ?? 0),
      h("dt", {}, "Undone"), h("dd", {}, t.undone ?? 0),
      h("dt", {}, "Successes"), h("dd", {}, luck.successes ?? 0),
      h("dt", {}, "Expected"), h("dd", {}, fixed(luck.expected)),
      h("dt", {}, "Luck score (z)"), h("dd", {}, fixed(luck.z_score)),
      h("dt", {}, "Chance of this well or worse"), h("dd", {}, percent(luck.p_this_well_or_worse)))),
    levels.length ? section("Levels of success", `${prefix}-levels`, h("table", { "aria-label": "Levels of success" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Level"), h("th", { scope: "col" }, "Observed"), h("th", { scope: "col" }, "Expected"))),
      h("tbody", {}, levels.map(([name, v]) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, v.observed), h("td", {}, fixed(v.expected))))))) : null,
    section("Charts", `${prefix}-charts`, h("div", { class: "charts" }, figures)),
  ];
}

async function sessionPanel(chaseId, keeperToken, rerender) {
  const kept = remembered()[chaseId] || {};
  if (!kept.session_id) {
    const start = h("button", { type: "button", class: "primary", onclick: async () => {
      try {
        const made = await client(null).post("/sessions", { name: `Session of ${kept.name || chaseId}` });
        const session = { session_id: made.group.session_id, session_token: made.keeper_token };
        await client(session.session_token).post(`/sessions/${session.session_id}/chases`, { chase_id: chaseId, chase_token: keeperToken });
        remember(chaseId, session);
        rerender();
      } catch (error) { alertProblem(error); }
    } }, "Start a session with this chase");
    return [section("Session", "session", h("p", {}, "A session gathers the Keeper's chases of a game night into one report."), start)];
  }
  const api = client(kept.session_token);
  const base = `/sessions/${kept.session_id}`;
  const others = Object.entries(remembered()).filter(([id, e]) => id !== chaseId && e.keeper_token && e.session_id !== kept.session_id);
  const add = others.length ? h("ul", { "aria-label": "Add chases to the session" }, others.map(([id, e]) => h("li", {}, h("button", { type: "button", onclick: async () => {
    try { await api.post(`${base}/chases`, { chase_id: id, chase_token: e.keeper_token }); remember(id, { session_id: kept.session_id, session_token: kept.session_token }); rerender(); } catch (error) { alertProblem(error); }
  } }, `Add ${e.name || id}`)))) : null;
  return [h("h2", { class: "band" }, "The session"), add, ...(await reportView(api, `${base}/report`, `${base}/charts`, "session"))];
}

export async function analyticsPage(main, api, chaseId, back) {
  const render = async () => {
    const base = `/chases/${chaseId}/analytics`;
    const own = await reportView(api, base, `${base}/charts`, "chase");
    const session = back ? await sessionPanel(chaseId, api.token, render) : [];  // the Keeper's page only
    fill(main,
      h("h1", {}, "Analytics"),
      back ? h("p", {}, h("a", { href: back }, "Back to the chase")) : null,
      h("h2", { class: "band" }, "This chase"), ...own, ...session);
  };
  await render();
}
