// The pages' router: #/ (create or open a chase), #/keeper/<chase> (the Keeper's console, with
// the token this browser keeps), #/play/<chase>/<token>/<participants> (a player's link),
// #/analytics/<chase>[/<token>].
import { analyticsPage } from "./analytics.mjs";
import { chasePage } from "./chase_page.mjs";
import { alertProblem, h } from "./dom.mjs";
import { home } from "./home.mjs";
import { client, keeperToken } from "./http.mjs";

async function route() {
  const main = document.getElementById("main");
  const [page, chaseId, token, mine] = location.hash.replace(/^#\/?/, "").split("/");
  alertProblem(null);
  try {
    if (page === "keeper" && chaseId) {
      const kept = keeperToken(chaseId);
      if (!kept) { main.replaceChildren(h("p", {}, "This browser has no Keeper token for that chase. ", h("a", { href: "#/" }, "Open it with its token"))); return; }
      await chasePage(main, client(kept), chaseId, "keeper");
    } else if (page === "play" && chaseId && token) {
      await chasePage(main, client(token), chaseId, "player", (mine || "").split(",").filter(Boolean));
    } else if (page === "analytics" && chaseId) {
      await analyticsPage(main, client(token || keeperToken(chaseId)), chaseId, token ? null : `#/keeper/${chaseId}`);
    } else {
      home(main);
    }
  } catch (error) {
    alertProblem(error);
  }
  document.body.dataset.ready = page || "home";
}

window.addEventListener("hashchange", route);
route();
