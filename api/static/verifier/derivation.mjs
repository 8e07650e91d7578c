// Server dice: every die is HMAC-SHA256(seed, message) read as a 256-bit number, mapped to the
// die's faces by rejection sampling (VERIFYING.md "Dice derivation"; domain/dice/derivation.py).
// The message is Python's json.dumps([chase id, sequence, die index, attempt, entropy]): ", "
// between items and every character outside printable ASCII written as a \uXXXX escape.

import { subtle } from "./webcrypto.mjs";

const SPACE = 1n << 256n;
const SHORT = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

export function asciiJsonString(text) {
  let out = '"';
  for (const unit of Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))) {
    const c = String.fromCharCode(unit);
    if (SHORT[c]) out += SHORT[c];
    else if (unit >= 0x20 && unit <= 0x7e) out += c;
    else out += "\\u" + unit.toString(16).padStart(4, "0");
  }
  return out + '"';
}

export const message = (chaseId, sequence, dieIndex, attempt, entropy) =>
  `[${asciiJsonString(String(chaseId))}, ${sequence}, ${dieIndex}, ${attempt}, ${asciiJsonString(entropy)}]`;

export async function hmacKey(seed) {
  return subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

// Index 0..sides-1 of one die of one roll; `key` is hmacKey(seed).
export async function deriveIndex(key, chaseId, sequence, dieIndex, sides, entropy = "") {
  if (sides < 2) throw new Error("a die has at least two sides");
  const n = BigInt(sides);
  const limit = SPACE - (SPACE % n);
  for (let attempt = 0; ; attempt++) {
    const mac = await subtle.sign("HMAC", key, new TextEncoder().encode(message(chaseId, sequence, dieIndex, attempt, entropy)));
    const value = BigInt("0x" + Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join(""));
    if (value < limit) return Number(value % n);
  }
}

// bytes.fromhex: pairs of hex digits, ASCII whitespace between them skipped; null if not hex.
export function fromHex(text) {
  if (typeof text !== "string") return null;
  const bytes = [];
  let i = 0;
  while (i < text.length) {
    if (" \t\n\r\f\v".includes(text[i])) { i++; continue; }
    const pair = text.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return null;
    bytes.push(Number.parseInt(pair, 16));
    i += 2;
  }
  return new Uint8Array(bytes);
}

// A die's face for a derived index: tens die 00..90, units die 0..9, a dN 1..N.
export function face(die, index) {
  if (die.kind === "tens") return index * 10;
  if (die.kind === "units") return index;
  return index + 1;
}
