// The Keeper's links for players and answers to their undo requests (the record's commands,
// undo, rewind, redo, reveal, end, tokens and export, are buttons from the view's actions).
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

// The link a player opens: the token rides in the fragment (#...), which the browser never
// sends to a server, with the participants it acts for.
export function playerLink(chase, { token, participant_ids: ids }) {
  const link = `${location.origin}/app/#/play/${chase.chase_id}/${token}/${ids.join(",")}`;
  const names = ids.map((id) => (chase.participants[id] || { name: id }).name).join(", ");
  return h("p", { class: "links" }, h("a", { href: link, class: "player-link", dataset: { participants: ids.join(",") } }, `Player link for ${names}`),
    h("span", { class: "hint" }, " (copy it to the player; it is shown once)"));
}
