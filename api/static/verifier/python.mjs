// How the reference verifier (Python, domain/verification.py) compares and prints JSON values,
// so that this verifier fails on exactly the same records with the same words. Python's ==
// treats true as 1 and 1 as 1.0, and its truthiness makes [] and {} false; a JS port that used
// === or JS truthiness would pass or fail different forged records.

export class ReadBackError extends Error {}  // Python's ValueError/TypeError/KeyError while reading a roll

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isNumeric = (v) => typeof v === "number" || typeof v === "boolean";

export function pyEq(a, b) {
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyEq(a[k], b[k]));
}

export function pyTruth(v) {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

// dict.get(key, default): the default only when the key is absent (a null stays null).
export const get = (object, key, fallback = null) => (isObject(object) && Object.hasOwn(object, key) ? object[key] : fallback);
export const has = (object, key) => isObject(object) && Object.hasOwn(object, key);

// Python's int for a whole number; bool counts as int (isinstance(True, int)).
export const isInt = (v) => Number.isInteger(v) || typeof v === "boolean";
export const isWhole = (v) => Number.isInteger(v);  // "isinstance(v, bool) or not isinstance(v, int)" refused

export function num(v) {  // a value used in arithmetic, as Python would (else TypeError)
  if (isNumeric(v)) return Number(v);
  throw new ReadBackError("not a number");
}

export function pyInt(v) {  // Python's int(v) of a JSON value
  if (isNumeric(v)) return Math.trunc(Number(v));
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) return Number.parseInt(v, 10);
  throw new ReadBackError(`invalid literal for int(): ${v}`);
}

function floatRepr(x) {
  // Python's repr of a float: the shortest digits (as JS), fixed notation for 1e-4 <= |x| < 1e16.
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const n = Number(exp) + 1;  // |x| = 0.digits * 10**n
  let text;
  if (n > -4 && n <= 16) {
    text = n <= 0 ? "0." + "0".repeat(-n) + digits : n >= digits.length ? digits + "0".repeat(n - digits.length) + ".0" : digits.slice(0, n) + "." + digits.slice(n);
  } else {
    const e = n - 1;
    text = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
  }
  return (x < 0 || Object.is(x, -0) ? "-" : "") + text;
}

// Python's text of a number: an int as digits, a float by repr (``float`` says which it was read as).
export const pyNumber = (x, float = false) => (Number.isInteger(x) && !float ? String(x) : floatRepr(x));

export function pyRepr(v) {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return pyNumber(v);
  if (typeof v === "string") return v.includes("'") && !v.includes('"') ? `"${v}"` : `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]";
  return "{" + Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ") + "}";
}

export const pyStr = (v) => (typeof v === "string" ? v : pyRepr(v));  // str(v), as an f-string writes it

// A key for Python's dict and set of JSON scalars (1, 1.0 and true are one key).
export const pyKey = (v) => (isNumeric(v) ? `n:${Number(v)}` : typeof v === "string" ? `s:${v}` : `j:${JSON.stringify(v)}`);
