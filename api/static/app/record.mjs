// The Keeper's links for players and answers to their undo requests (the record's commands,
// undo, rewind, redo, reveal, end and export, are buttons from the view's actions).
import { alertProblem, h } from "./dom.mjs";

// Undo requests the players made, for the Keeper to grant or refuse.
export function undoRequests(api, chase, refresh) {
  const answer = (id, accept) => async () => {
    try { await api.post(`/chases/${chase.chase_id}/undo-requests/${id}`, { accept }); alertProblem(null); await refresh(); } catch (error) { alertProblem(error); }
  };
  return h("div", { class: "group" }, h("h3", {}, "Undo requests"), h("ul", {}, chase.undo_requests.map((r) => h("li", {},
    `#${r.request_id}: undo ${r.count || 1}${r.note ? ` (${r.note})` : ""} `,
    h("button", { type: "button", onclick: answer(r.request_id, true) }, `Grant request ${r.request_id}`), " ",
    h("button", { type: "button", onclick: answer(r.request_id, false) }, `Refuse request ${r.request_id}`)))));
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
