// One chase at the table, live: the Keeper's console (role "keeper") or a player's view (role
// "player", acting only for their own participants). Both follow the chase over SSE and draw
// the track, the vehicles, the roll log, the rewind slider and the verification panel; only the
// Keeper's page has set-up, record and link controls (the API refuses them to a player anyway).
import { participantActions } from "./actions.mjs";
import { alertProblem, fill, h, say, section } from "./dom.mjs";
import { actionButtons, actionForm } from "./forms.mjs";
import { follow } from "./live.mjs";
import { playerLink, undoRequests } from "./record.mjs";
import { rewindPanel } from "./rewind.mjs";
import { renderRolls } from "./rolls.mjs";
import { addParticipantForm, commandBox, locationForm, obstacleForm } from "./setup.mjs";
import { renderTrack, renderVehicles } from "./track.mjs";
import { fileChecker, renderVerdict, verifyText } from "./verifying.mjs";

export async function chasePage(main, api, chaseId, role, mine = []) {
  const keeper = role === "keeper";
  let chase = (await api.get(`/chases/${chaseId}`)).chase;
  let rolls = [];
  let verified = null;
  let seedsSeen = (chase.revealed_seeds || []).length;
  const firstHead = chase.chain_head;  // kept: a later export must still contain it

  const track = h("div", { "data-test": "track" });
  const vehicles = h("div");
  const turn = h("div");
  const formArea = h("div", { class: "form-area" });
  const rollLog = h("div");
  const verdict = h("div", { "aria-live": "polite" });
  const setupArea = h("div");
  const liveState = h("span", { class: "live-state", "data-test": "live-state" }, "connecting");
  const rewind = rewindPanel(api, chaseId);

  async function pick(action, who) {
    if (action.method === "GET") {  // the export: the log as a file
      try {
        const text = await api.text(action.href);
        const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: `chase-${chaseId}.json` }, "Download the export");
        formArea.replaceChildren(link);
        link.focus();
      } catch (error) { alertProblem(error); }
      return;
    }
    formArea.replaceChildren(actionForm(action, who, chase, api, async (answer) => {
      formArea.replaceChildren();
      if (answer && answer.token) formArea.append(playerLink(chase, answer));  // issue_token
      if (answer && answer.chase) show(answer.chase);
      await refresh();
      // The buttons were drawn anew: a keyboard user goes on from the list of actions.
      if (!formArea.contains(document.activeElement)) document.getElementById("turn-title").focus();
    }));
    const first = formArea.querySelector("input, select, textarea, button");
    if (first) first.focus();
  }

  // Which actions show and whether they are allowed is the API's word (the view as this token
  // reads it). A player's page shows only what the API allows them now, for their own
  // participants: no Keeper control, not even a disabled one.
  function drawTurn() {
    const groups = [];
    const chaseActions = (chase.actions || []).filter((a) => keeper || a.allowed);
    if (chaseActions.length) groups.push(h("div", { class: "group" }, h("h3", {}, keeper ? "The chase" : "Everyone"), actionButtons(chaseActions, "", (a) => pick(a, ""))));
    const turnOf = chase.turn ? chase.turn.participant_id : chase.whose_turn;
    for (const p of Object.values(chase.participants || {})) {
      if (!keeper && !mine.includes(p.id)) continue;
      if (!Array.isArray(p.allowed_actions)) continue;
      const actions = participantActions(chase, p);
      const offered = keeper ? actions : actions.filter((a) => a.allowed);
      groups.push(h("div", { class: p.id === turnOf ? "group now" : "group", dataset: { participant: p.id } },
        h("h3", {}, p.name, p.id === turnOf ? " (their turn)" : ""), actionButtons(offered, p.name, (a) => pick(a, p.name))));
    }
    if (keeper && (chase.undo_requests || []).length) groups.push(undoRequests(api, chase, refresh));
    turn.replaceChildren(...(groups.length ? groups : [h("p", {}, "No actions offered by the API for this chase now.")]));
  }

  function show(next) {
    if (next.version < chase.version) return;  // an older answer arriving late
    chase = next;
    track.replaceChildren(renderTrack(chase));
    drawTurn();
    rewind.update(chase.version);
    if (keeper) drawSetup();
    const seeds = (chase.revealed_seeds || []).length;
    if (seeds > seedsSeen) { seedsSeen = seeds; runVerification(); }  // a seed revealed: check it at once
  }

  function drawSetup() {
    if (setupArea.childElementCount) return;  // forms keep what the Keeper is typing
    setupArea.append(
      h("details", { open: chase.phase === "setup" }, h("summary", {}, "Add a participant"), addParticipantForm(api, chase, refresh)),
      chase.system === "coc7e" ? h("details", {}, h("summary", {}, "Locations, hazards and barriers"), locationForm(api, chase, refresh), obstacleForm(api, chase, refresh)) : null,
      h("details", {}, h("summary", {}, "Any command"), commandBox(api, chase, refresh)));
  }

  async function refresh() {
    try {
      const [view, history, builds] = await Promise.all([
        api.get(`/chases/${chaseId}`), api.get(`/chases/${chaseId}/rolls`), api.get(`/chases/${chaseId}/vehicles`).catch(() => null)]);
      show(view.chase);
      rolls = history.rolls || [];
      rollLog.replaceChildren(renderRolls(rolls, chase, verified));
      vehicles.replaceChildren(renderVehicles(builds));
    } catch (error) { alertProblem(error); }
  }

  async function runVerification() {
    verdict.replaceChildren(h("p", {}, "Verifying in this browser…"));
    const result = await verifyText(await api.text(`/chases/${chaseId}/export`), firstHead);
    verified = result.ok;
    verdict.replaceChildren(renderVerdict(result));
    rollLog.replaceChildren(renderRolls(rolls, chase, verified));
  }

  let pending = null;
  const live = follow(api, chaseId, () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 100);
  }, (state) => { liveState.textContent = state; });
  window.addEventListener("hashchange", () => live.stop(), { once: true });

  fill(main,
    h("h1", {}, chase.name, h("span", { class: "who" }, keeper ? " — Keeper's console" : " — player's view"), " ", liveState),
    section("Track", "track-section", track, h("details", {}, h("summary", {}, "Vehicles"), vehicles)),
    section(keeper ? "Turn: actions" : "Your actions", "turn", turn, formArea),
    keeper ? section("Set up", "setup", setupArea) : null,
    section("Rewind", "rewind", rewind.element),
    section("Roll log", "rolls", rollLog),
    section("Verify", "verify",
      h("p", {}, "Checks the hash chain, the seed commitments and every server roll here, in this browser."),
      h("button", { type: "button", class: "primary", onclick: runVerification }, "Verify in this browser"), verdict, fileChecker()),
    h("p", {}, h("a", { href: `#/analytics/${chaseId}${keeper ? "" : `/${api.token}`}` }, "Session analytics and charts")));
  show(chase);
  await refresh();
  say(`${chase.name}: version ${chase.version}.`);
}
