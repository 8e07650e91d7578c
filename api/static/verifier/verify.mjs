// The offline verifier in JavaScript: a port of domain/verification.py, from VERIFYING.md.
// It checks an export as `chase verify` does, event by event: versions in order with none
// missing, the hash chain in the encoding the first event names, each revealed seed against its
// commitment, the roll sequence, every server roll whose seed is revealed (recomputed die by
// die), and what each roll came to (each game system's check, systems/*.mjs, handed in by
// checks.mjs as infrastructure/systems.py hands in the Python ones). Plain ES module: runs in a
// browser and in Node 18 or later (WebCrypto for SHA-256 and HMAC), no build step, no dependency.
import { ENCODINGS, GENESIS, encodingNamedBy, hashRecord, sha256Hex } from "./canonical.mjs";
import { deriveIndex, face, fromHex, hmacKey } from "./derivation.mjs";
import { InvalidDiceExpression, parse } from "./expressions.mjs";
import { parseLossless } from "./lossless.mjs";
import { get, has, isObject, pyEq, pyKey, pyRepr, pyStr, pyTruth } from "./python.mjs";

const RECORD_KEYS = ["chase_id", "version", "type", "recorded_at", "data"];

export class VerificationFailed extends Error {
  constructor(version, reason) {
    super(`event ${pyStr(version)}: ${reason}`);
    this.version = version;
    this.reason = reason;
  }
}

export function summary(r) {
  return (
    `chase ${r.chase_id}: ${r.events} events, chain head ${r.head}\n` +
    `${r.rolls} rolls (${r.undone_rolls} undone), ${r.table_rolls} with table dice, ` +
    `${r.server_rolls_verified} server rolls recomputed and matching, ` +
    `${r.server_rolls_unverifiable} server rolls whose seed is not revealed yet; ` +
    `${r.seeds_revealed} seed(s) revealed and matching their commitments` +
    (r.cards_verified ? `; ${r.cards_verified} dealt card(s) matching their shuffles` : "")
  );
}

const TENS = { sides: 10, kind: "tens" };
const UNITS = { sides: 10, kind: "units" };
const D = (sides) => ({ sides, kind: "standard" });

function sidesOf(label) {  // int(d["die"].lstrip("d"))
  const text = String(label).replace(/^d+/, "");
  if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new Error(`invalid literal for int(): '${text}'`);
  return Number.parseInt(text, 10);
}

export function diceOf(roll) {
  if (has(roll, "tens")) return [...roll.tens.map(() => TENS), UNITS];
  if (has(roll, "shuffle")) {
    const dice = [];
    for (let sides = roll.shuffle.cards.length; sides > 1; sides--) dice.push(D(sides));
    return dice;
  }
  return get(roll, "dice", []).map((d) => D(sidesOf(d.die)));
}

export function facesOf(roll) {
  if (has(roll, "tens")) return [...roll.tens.map((t) => t.face), roll.units];
  return get(roll, "dice", []).map((d) => d.face);
}

export function shuffled(cards, faces) {
  const order = [...cards];
  for (let k = 0, i = order.length - 1; k < faces.length && i > 0; k++, i--) {
    const j = faces[k] - 1;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

// `exported`: the export's JSON text (best: each record is hashed as written, lossless.mjs), or
// the export already parsed (exact but for whole floats in chains of the old encoding).
export async function verify(exported, keptHead = null, checks = []) {
  let written = null;
  if (typeof exported === "string") {
    written = get(parseLossless(exported), "events");
    exported = JSON.parse(exported);
  }
  const events = get(exported, "events");
  if (!Array.isArray(events) || events.length === 0) throw new VerificationFailed("-", "the export holds no events");
  const report = {
    chase_id: pyStr(get(exported, "chase_id", "")), events: 0, head: GENESIS, rolls: 0, undone_rolls: 0, table_rolls: 0,
    server_rolls_verified: 0, server_rolls_unverifiable: 0, seeds_revealed: 0, cards_verified: 0, roll_actions: new Map(),
  };
  const commitments = new Map();
  const seeds = new Map();
  const serverRolls = [];
  const undone = new Set();
  const deals = new Map();  // shuffle sequence -> {sequence, dealt: [[version, position, card]]}
  let previous = GENESIS;
  let encoding = "";
  const heads = new Set();
  let epochNow = 0;
  let ended = null;
  for (let position = 1; position <= events.length; position++) {
    const event = events[position - 1];
    const version = get(event, "version");
    if (!pyEq(version, position)) {
      throw new VerificationFailed(version, `expected version ${position} here: an event is missing, added or out of order`);
    }
    if (!pyEq(get(event, "chase_id"), report.chase_id)) throw new VerificationFailed(version, "belongs to another chase");
    const data = pyTruth(get(event, "data")) ? event.data : {};
    if (position === 1) {
      encoding = encodingNamedBy(data);
      if (typeof encoding !== "string" || !Object.hasOwn(ENCODINGS, encoding)) {
        throw new VerificationFailed(version, `names the chain encoding ${pyRepr(encoding)}, which this verifier does not know`);
      }
    }
    if (!pyEq(get(data, "previous_hash"), previous)) {
      throw new VerificationFailed(version, "its previous_hash does not match the event before it: the chain is broken");
    }
    let digest;
    try {
      const record = Array.isArray(written) ? written[position - 1] : event;
      digest = await hashRecord(Object.fromEntries(RECORD_KEYS.map((k) => [k, get(record, k)])), encoding);
    } catch (e) {
      throw new VerificationFailed(version, `its record has no canonical encoding: ${e.message}`);
    }
    if (has(event, "hash") && !pyEq(event.hash, digest)) throw new VerificationFailed(version, "its content does not match its hash: it was changed");
    previous = digest;
    heads.add(digest);
    const kind = String(get(event, "type", "")).split(".").pop();
    if (position === 1) commitments.set(pyKey(0), get(data, "seed_commitment", ""));
    if (kind === "SeedCommitted") {
      commitments.set(pyKey(data.epoch), data.commitment);
      epochNow = data.epoch;
    } else if (kind === "SeedRevealed") {
      await checkSeed(version, data, commitments, seeds);
    } else if (kind === "ChaseEnded") {
      ended = [version, get(data, "action")];
    } else if (kind === "Undone" || kind === "Rewound") {
      for (const a of get(data, "actions", [])) undone.add(pyKey(a));
      for (const a of get(data, "restored_actions", [])) undone.delete(pyKey(a));
    } else if (kind === "Redone") {
      for (const a of get(data, "actions", [])) undone.delete(pyKey(a));
      for (const a of get(data, "undone_again", [])) undone.add(pyKey(a));
    }
    if (get(data, "shuffle_sequence") !== null && has(data, "position") && has(data, "card")) {
      const key = pyKey(data.shuffle_sequence);
      if (!deals.has(key)) deals.set(key, { sequence: data.shuffle_sequence, dealt: [] });
      deals.get(key).dealt.push([version, data.position, data.card]);
    }
    const roll = get(data, "roll");
    if (isObject(roll)) {
      report.rolls += 1;
      if (!pyEq(get(roll, "sequence"), report.rolls)) {
        throw new VerificationFailed(version, `roll number ${pyStr(get(roll, "sequence"))} where ${report.rolls} was due: a roll is missing or repeated`);
      }
      const action = pyKey(get(data, "action"));
      if (!report.roll_actions.has(action)) report.roll_actions.set(action, []);
      report.roll_actions.get(action).push(roll.sequence);
      checkResult(version, roll, checks);
      const source = get(roll, "source", {});
      if (get(source, "kind") === "server") {
        if (!pyEq(get(source, "epoch", 0), epochNow)) {
          throw new VerificationFailed(version, `server roll ${pyStr(roll.sequence)} claims seed epoch ${pyStr(get(source, "epoch"))}, but epoch ${pyStr(epochNow)} was the one committed`);
        }
        serverRolls.push([version, roll]);
      } else {
        report.table_rolls += 1;
      }
    }
  }
  if (ended !== null && !undone.has(pyKey(ended[1])) && !seeds.has(pyKey(epochNow))) {
    throw new VerificationFailed(ended[0], "the chase ended but its seed was never revealed after it");
  }
  if (keptHead !== null && keptHead !== undefined && !heads.has(keptHead)) {
    throw new VerificationFailed("-", `the chain head you kept (${keptHead}) is not in this log: it was rewritten`);
  }
  for (const [version, roll] of serverRolls) {
    const epoch = pyKey(get(roll.source, "epoch", 0));
    if (!seeds.has(epoch)) {
      report.server_rolls_unverifiable += 1;
      continue;
    }
    const key = seeds.get(epoch);
    const entropy = get(roll.source, "entropy", "");
    const expected = [];
    const dice = diceOf(roll);
    for (let index = 0; index < dice.length; index++) {
      expected.push(face(dice[index], await deriveIndex(key, report.chase_id, roll.sequence, index, dice[index].sides, entropy)));
    }
    if (has(roll, "shuffle")) {
      const dealt = deals.has(pyKey(roll.sequence)) ? deals.get(pyKey(roll.sequence)).dealt : [];
      deals.delete(pyKey(roll.sequence));
      report.cards_verified += checkDeals(shuffled(roll.shuffle.cards, expected), roll.sequence, dealt);
      report.server_rolls_verified += 1;
      continue;
    }
    if (!pyEq(expected, facesOf(roll))) {
      throw new VerificationFailed(version, `server roll ${pyStr(roll.sequence)} shows ${pyRepr(facesOf(roll))} but the revealed seed gives ${pyRepr(expected)}`);
    }
    report.server_rolls_verified += 1;
  }
  const shuffles = new Set(serverRolls.filter(([, roll]) => has(roll, "shuffle")).map(([, roll]) => pyKey(roll.sequence)));
  for (const [key, { sequence, dealt }] of deals) {
    if (!shuffles.has(key)) {
      throw new VerificationFailed(dealt[0][0], `a card dealt from shuffle ${pyStr(sequence)}, which is not a server shuffle of this log`);
    }
  }
  report.events = events.length;
  report.head = previous;
  report.seeds_revealed = seeds.size;
  report.undone_rolls = [...report.roll_actions].reduce((n, [action, seqs]) => n + (undone.has(action) ? seqs.length : 0), 0);
  return report;
}

function checkDeals(order, sequence, dealt) {
  for (const [version, position, card] of dealt) {
    const inRange = Number.isInteger(position) && position >= 0 && position < order.length;
    if (!inRange || !pyEq(order[position], card)) {
      const found = inRange ? order[position] : "no card";
      throw new VerificationFailed(version, `dealt ${pyStr(card)} as card ${pyStr(position)} of shuffle ${pyStr(sequence)}, but the revealed seed puts ${pyStr(found)} there`);
    }
  }
  return dealt.length;
}

async function checkSeed(version, data, commitments, seeds) {
  const epoch = get(data, "epoch", 0);
  const seed = fromHex(get(data, "seed", ""));
  if (seed === null) throw new VerificationFailed(version, "the revealed seed is not hexadecimal");
  if (!pyEq(await sha256Hex(seed), commitments.has(pyKey(epoch)) ? commitments.get(pyKey(epoch)) : null)) {
    throw new VerificationFailed(version, `the revealed seed does not match the commitment of epoch ${pyStr(epoch)}`);
  }
  seeds.set(pyKey(epoch), await hmacKey(seed));
}

function checkResult(version, roll, checks) {
  const faces = facesOf(roll);
  if (checks.some((check) => check(version, roll, faces))) return;
  if (!has(roll, "expression")) {
    throw new VerificationFailed(version, `roll ${pyStr(get(roll, "sequence"))} is of no kind the given game systems' checks read`);
  }
  let expression;
  try {
    expression = parse(roll.expression);
  } catch (e) {
    if (e instanceof InvalidDiceExpression) throw new VerificationFailed(version, `roll ${pyStr(get(roll, "sequence"))} has an unreadable expression`);
    throw e;
  }
  const total = expression.total(faces);
  if (!pyEq(expression.modifier, get(roll, "modifier")) || !pyEq(total, get(roll, "total"))) {
    throw new VerificationFailed(version, `roll ${pyStr(roll.sequence)}: ${pyStr(roll.expression)} with faces ${pyRepr(faces)} makes ${total}, not ${pyStr(get(roll, "total"))}`);
  }
}
