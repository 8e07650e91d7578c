// Live updates over Server-Sent Events, opened with a stream ticket (README "Browsers"): the
// token asks for a short-lived ticket, and the ticket (never the token) goes in the stream's URL.
// The stream names each event by its type, and a chase has many types across game systems, so
// the page reads the stream with fetch and parses it here rather than listing every name for
// EventSource; it reconnects with Last-Event-ID (and a fresh ticket) as EventSource would.

export function follow(api, chaseId, onEvent, onState = () => {}) {
  let last = null;
  let stopped = false;
  let controller = null;

  async function once() {
    const { ticket } = await api.post(`/chases/${chaseId}/stream-tickets`, undefined);
    controller = new AbortController();
    const headers = { Accept: "text/event-stream" };
    if (last !== null) headers["Last-Event-ID"] = String(last);
    const response = await fetch(`/chases/${chaseId}/stream?ticket=${encodeURIComponent(ticket)}`, { headers, signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = { id: null, event: "message", data: "" };
        for (const line of block.split("\n")) {
          if (!line || line.startsWith(":")) continue;  // keep-alive comments
          const at = line.indexOf(":");
          const name = at < 0 ? line : line.slice(0, at);
          const text = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
          if (name === "data") message.data += (message.data ? "\n" : "") + text;
          else if (name === "id") message.id = text;
          else if (name === "event") message.event = text;
        }
        if (message.id !== null) last = message.id;
        if (message.data) onEvent(message.event, JSON.parse(message.data), message.id);
      }
    }
  }

  (async () => {
    while (!stopped) {
      try { await once(); } catch (error) { if (stopped) return; onState("reconnecting"); }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();

  return { stop() { stopped = true; if (controller) controller.abort(); } };
}
