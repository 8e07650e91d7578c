// The page's client of the public API: the token goes in the Authorization header, never in a
// URL; refusals come back as RFC 9457 problems and are shown as they are (the API names the
// field, or the rule and its heading).

export class Problem extends Error {
  constructor(status, body) {
    const detail = body && typeof body === "object" ? (body.detail || body.title) : String(body || "");
    super(`${status}: ${detail}`);
    this.status = status;
    this.body = body;
  }
}

export function client(token) {
  async function call(method, path, body, extra = {}) {
    const headers = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), ...extra });
    const text = await response.text();
    let data = text;
    if ((response.headers.get("Content-Type") || "").includes("json") && text) data = JSON.parse(text);
    if (!response.ok) throw new Problem(response.status, data);
    return { data, text, headers: response.headers };
  }
  return {
    token,
    get: async (path) => (await call("GET", path)).data,
    text: async (path) => (await call("GET", path)).text,
    post: async (path, body = {}) => (await call("POST", path, body)).data,
    send: async (method, path, body) => (await call(method, path, body)).data,
    call,
  };
}

// Tokens stay in this browser: the Keeper's per chase (localStorage, so a reload keeps the
// console), a player's in the link's fragment, which browsers never send to a server.
const KEY = "chase-ledger:chases";

export function remembered() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function remember(chaseId, entry) {
  const all = remembered();
  all[chaseId] = { ...(all[chaseId] || {}), ...entry };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function keeperToken(chaseId) {
  return (remembered()[chaseId] || {}).keeper_token || null;
}
