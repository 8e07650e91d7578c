// The first page: create a chase of any system, or open one this browser keeps a token for.
import { client, remember, remembered } from "./http.mjs";
import { alertProblem, field, h, section } from "./dom.mjs";

const SYSTEMS = [
  ["coc7e", "Call of Cthulhu 7e chase"], ["coc7e-combat", "Call of Cthulhu 7e fight"],
  ["swade", "Savage Worlds Adventure Edition (chase cards)"], ["swd", "Savage Worlds Deluxe (action cards)"], ["d6", "D6 System race or chase"],
];

export function home(main) {
  const name = h("input", { type: "text", name: "name", required: true, maxlength: 200, value: "" });
  const system = h("select", { name: "system" }, SYSTEMS.map(([v, t]) => h("option", { value: v }, t)));
  const dice = h("select", { name: "dice" }, h("option", { value: "server" }, "Server dice (verifiable)"), h("option", { value: "table" }, "Table dice (entered by hand)"));
  const form = h("form", { "aria-label": "Create a chase" }, field("Chase name", name), field("Game system", system), field("Dice", dice),
    h("button", { type: "submit", class: "primary" }, "Create the chase"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await client(null).post("/chases", { name: name.value, system: system.value, dice: dice.value });
      remember(answer.chase.chase_id, { keeper_token: answer.keeper_token, name: answer.chase.name, system: answer.chase.system });
      alertProblem(null);
      location.hash = `#/keeper/${answer.chase.chase_id}`;
    } catch (error) { alertProblem(error); }
  });
  const known = Object.entries(remembered());
  const id = h("input", { type: "text", name: "chase", required: true, autocomplete: "off" });
  const token = h("input", { type: "password", name: "token", required: true, autocomplete: "off" });
  const open = h("form", { "aria-label": "Open a chase with its Keeper token" }, field("Chase id", id), field("Keeper token", token), h("button", { type: "submit" }, "Open"));
  open.addEventListener("submit", (event) => {
    event.preventDefault();
    remember(id.value.trim(), { keeper_token: token.value.trim() });
    location.hash = `#/keeper/${id.value.trim()}`;
  });
  main.replaceChildren(
    h("h1", {}, "Chase Ledger"),
    section("New chase", "new", form),
    section("Your chases", "known", known.length
      ? h("ul", {}, known.map(([cid, e]) => h("li", {}, h("a", { href: `#/keeper/${cid}` }, `${e.name || cid} (${e.system || ""})`))))
      : h("p", {}, "None in this browser yet."), open));
}
