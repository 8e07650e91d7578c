// The analytics page: luck, levels of success against expected, dice fairness and the game, as
// the API reports them, with its charts (drawn by the server; fetched with the token, shown as
// images from blobs so the token never goes in an image URL).
import { h, percent, section } from "./dom.mjs";

const CHARTS = [["luck", "Luck over time"], ["levels", "Levels of success against expected"], ["faces", "Die faces against the uniform line"]];

async function chart(api, path, kind, title) {
  const response = await fetch(`${path}/charts/${kind}.svg`, { headers: { Authorization: `Bearer ${api.token}` } });
  if (!response.ok) return h("p", {}, `${title}: ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  return h("figure", {}, h("img", { src: url, alt: title, class: "chart" }), h("figcaption", {}, title));
}

export async function analyticsPage(main, api, chaseId, back) {
  const base = `/chases/${chaseId}/analytics`;
  const report = await api.get(base);
  const t = report.totals || {};
  const luck = t.luck || {};
  const levels = Object.entries(t.levels || {});
  const figures = await Promise.all(CHARTS.map(([kind, title]) => chart(api, base, kind, title)));
  main.replaceChildren(
    h("h1", {}, `Analytics: ${report.scope ? report.scope.name : chaseId}`),
    back ? h("p", {}, h("a", { href: back }, "Back to the chase")) : null,
    section("Luck", "luck", h("dl", { class: "state" },
      h("dt", {}, "Rolls"), h("dd", { "data-test": "rolls" }, t.rolls ?? 0),
      h("dt", {}, "Undone"), h("dd", {}, t.undone ?? 0),
      h("dt", {}, "Successes"), h("dd", {}, luck.successes ?? 0),
      h("dt", {}, "Expected"), h("dd", {}, luck.expected !== undefined ? luck.expected.toFixed(2) : "–"),
      h("dt", {}, "Luck score (z)"), h("dd", {}, luck.z_score !== undefined && luck.z_score !== null ? luck.z_score.toFixed(2) : "–"),
      h("dt", {}, "Chance of this well or worse"), h("dd", {}, percent(luck.p_this_well_or_worse)))),
    levels.length ? section("Levels of success", "levels", h("table", { "aria-label": "Levels of success" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Level"), h("th", { scope: "col" }, "Observed"), h("th", { scope: "col" }, "Expected"))),
      h("tbody", {}, levels.map(([name, v]) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, v.observed), h("td", {}, Number(v.expected).toFixed(2))))))) : null,
    section("Charts", "charts", h("div", { class: "charts" }, figures)),
    section("Notes", "notes", h("ul", {}, (report.notes || []).map((n) => h("li", {}, n)))));
}
