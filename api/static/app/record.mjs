// The Keeper's hold on the record: undo, rewind and redo (compensating events: nothing is
// deleted), the seed revealed, the chase ended, the log exported, and links for players.
import { alertProblem, field, h, say } from "./dom.mjs";

function commandButton(label, run) {
  return h("button", { type: "button", onclick: async () => {
    try { await run(); alertProblem(null); } catch (error) { alertProblem(error); }
  } }, label);
}

export function recordControls(api, chaseId, refresh) {
  const base = `/chases/${chaseId}`;
  const count = h("input", { type: "number", min: 1, max: 100, value: 1, inputmode: "numeric" });
  const version = h("input", { type: "number", min: 1, inputmode: "numeric" });
  const outcome = h("input", { type: "text", value: "caught" });
  const download = h("a", { hidden: true, download: `chase-${chaseId}.json` }, "Download the export");
  return h("div", { class: "record" },
    h("div", { class: "row" }, field("Actions to undo", count), commandButton("Undo", async () => { await api.post(`${base}/undo`, { count: Number(count.value) }); await refresh(); })),
    h("div", { class: "row" }, field("Rewind the chase to version", version), commandButton("Rewind", async () => { await api.post(`${base}/rewind`, { to_version: Number(version.value) }); await refresh(); })),
    h("div", { class: "row" },
      commandButton("Redo", async () => { await api.post(`${base}/redo`, {}); await refresh(); }),
      commandButton("Reveal the seed", async () => { await api.post(`${base}/reveal-seed`, {}); say("Seed revealed: anyone can now recompute every server roll."); await refresh(); })),
    h("div", { class: "row" }, field("Outcome", outcome), commandButton("End the chase", async () => { await api.post(`${base}/end`, { outcome: outcome.value }); await refresh(); })),
    h("div", { class: "row" }, commandButton("Export the log", async () => {
      const text = await api.text(`${base}/export`);
      download.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      download.hidden = false;
      download.focus();
    }), download));
}

export function playerLinks(api, chase) {
  const out = h("div", { "aria-live": "polite", class: "links" });
  const boxes = Object.values(chase.participants || {}).map((p) =>
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "pid", value: p.id }), ` ${p.name}`));
  const form = h("form", { "aria-label": "Player links" },
    h("fieldset", {}, h("legend", {}, "Participants the player acts for"), boxes),
    h("button", { type: "submit" }, "Make a player link"), out);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const ids = [...form.querySelectorAll("input[name=pid]:checked")].map((b) => b.value);
    try {
      const { token, participant_ids } = await api.post(`/chases/${chase.chase_id}/tokens`, { participant_ids: ids });
      // The token rides in the fragment (#...), which the browser never sends to a server.
      const link = `${location.origin}/app/#/play/${chase.chase_id}/${token}/${participant_ids.join(",")}`;
      out.append(h("p", {}, h("a", { href: link, class: "player-link", dataset: { participants: participant_ids.join(",") } }, `Player link for ${ids.map((id) => chase.participants[id].name).join(", ")}`)));
      alertProblem(null);
    } catch (error) { alertProblem(error); }
  });
  return form;
}
