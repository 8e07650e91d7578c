// A small element builder: every control the pages make gets a label or an accessible name here.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let fieldCount = 0;

// A labelled input: <label for> tied to the control, so screen readers and tests find it by name.
export function field(label, control) {
  const id = control.id || `f${++fieldCount}`;
  control.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

// replaceChildren without the parts a page leaves out (null would be drawn as "null").
export function fill(element, ...children) {
  element.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

export function section(title, id, ...children) {
  const heading = `${id}-title`;
  return h("section", { id, "aria-labelledby": heading, class: "panel" }, h("h2", { id: heading, tabindex: -1 }, title), ...children);
}

export function say(message) {
  const status = document.getElementById("status");
  status.textContent = message;
}

export function alertProblem(error) {
  const box = document.getElementById("alert");
  if (!error) { box.hidden = true; box.textContent = ""; return; }
  const body = error.body && typeof error.body === "object" ? error.body : null;
  const fields = body && Array.isArray(body.errors) ? body.errors.map((e) => `${e.field}: ${e.message}`).join("; ") : "";
  box.textContent = body ? `${body.title || "Refused"} (${error.status}): ${body.detail || ""}${fields ? ` (${fields})` : ""}` : String(error.message || error);
  box.hidden = false;
}

export const short = (id) => String(id || "").slice(0, 8);
export const percent = (p) => (p === null || p === undefined ? "–" : `${(100 * p).toFixed(1)}%`);
