// The hash chain's canonical encodings (VERIFYING.md "Canonical encodings"; domain/chain.py).
// A chase's first event names its chain's encoding in data.chain_encoding; none named means
// "sorted-json", the encoding of chases created before RFC 8785 was adopted.
import { subtle } from "./webcrypto.mjs";
import { LosslessNumber } from "./lossless.mjs";
import { isObject, pyNumber } from "./python.mjs";

export const GENESIS = "0".repeat(64);
export const SORTED_JSON = "sorted-json";
export const JCS = "jcs";

const byCodeUnits = (a, b) => (a < b ? -1 : a > b ? 1 : 0);  // JS compares strings by UTF-16 code units
function byCodePoints(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

function write(value, order, numberText) {
  if (value === null || typeof value === "boolean") return String(value);
  if (value instanceof LosslessNumber) return numberText(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} is not a JSON number`);
    return numberText(value);
  }
  if (typeof value === "string") {
    if (/\p{Surrogate}/u.test(value)) throw new Error("a string holds a lone surrogate, which is not Unicode text");
    return JSON.stringify(value);  // the escapes JCS and Python's json (ensure_ascii off) both write
  }
  if (Array.isArray(value)) return "[" + value.map((v) => write(v, order, numberText)).join(",") + "]";
  if (isObject(value)) {
    const keys = Object.keys(value).sort(order);
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + write(value[k], order, numberText)).join(",") + "}";
  }
  throw new Error(`${typeof value} is not a JSON value`);
}

// RFC 8785: UTF-16 key order; numbers as ECMAScript writes the double. An integer (written with
// no fraction or exponent) beyond 2**53 - 1 has no canonical form, as in I-JSON and domain/jcs.py;
// a float of any finite value has one.
const MAX_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);
function jcsNumber(x) {
  if (x instanceof LosslessNumber) {
    if (!x.isFloat && (BigInt(x.text) > MAX_INTEGER || BigInt(x.text) < -MAX_INTEGER)) throw new Error(`the integer ${x.text} is beyond what a JSON number holds exactly (2**53 - 1)`);
    x = Number(x.text);
    if (!Number.isFinite(x)) throw new Error(`${x} is not a JSON number`);
  }
  return JSON.stringify(x);
}

// Python's json.dumps: an int as its digits, a float by repr (a whole float keeps its ".0").
function sortedJsonNumber(x) {
  if (x instanceof LosslessNumber) return x.isFloat ? pyNumber(Number(x.text), true) : BigInt(x.text).toString();
  return pyNumber(x);
}

export const ENCODINGS = {
  // json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False): code point order,
  // numbers as Python writes them (a float that is whole, 5.0, reads back here as 5: see VERIFYING.md).
  [SORTED_JSON]: (record) => write(record, byCodePoints, sortedJsonNumber),
  [JCS]: (record) => write(record, byCodeUnits, jcsNumber),
};

export const encodingNamedBy = (firstData) => (isObject(firstData) && Object.hasOwn(firstData, "chain_encoding") ? firstData.chain_encoding : SORTED_JSON);

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

export async function sha256Hex(bytes) {
  return hex(await subtle.digest("SHA-256", bytes));
}

export async function hashRecord(record, encoding) {
  const body = Object.fromEntries(Object.entries(record).filter(([k]) => k !== "hash"));
  return sha256Hex(new TextEncoder().encode(ENCODINGS[encoding](body)));
}
