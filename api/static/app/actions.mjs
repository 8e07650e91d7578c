// What a participant may do now, as the view says it (api/compact_actions.py): each command's
// method and href once for the chase (`action_templates`, RFC 6570: `{participant_id}` is the
// participant's id), and per participant the commands allowed and each refusal once with the
// commands it refuses. Made here into one entry per command, as the buttons draw them: action,
// method, href, allowed, and when refused why and rule (the API's words, not worked out here).
export function participantActions(chase, p) {
  const templates = chase.action_templates || {};
  const allowed = new Set(p.allowed_actions || []);
  const refusals = new Map();
  for (const refusal of p.refused_actions || []) {
    for (const action of refusal.actions) refusals.set(action, refusal);
  }
  const out = [];
  for (const [action, where] of Object.entries(templates)) {  // the chase's order of commands
    const refused = refusals.get(action);
    if (!allowed.has(action) && !refused) continue;  // not a command of this participant now
    const entry = { action, method: where.method, href: where.href.replaceAll("{participant_id}", encodeURIComponent(p.id)) };
    out.push(refused ? { ...entry, allowed: false, why: refused.why, rule: refused.rule } : { ...entry, allowed: true });
  }
  return out;
}
