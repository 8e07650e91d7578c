// Test helper: the JavaScript verifier's canonical encodings (canonical.mjs) of many JSON values,
// read from stdin as one JSON array's text (losslessly, as the verifier reads an export). Writes
// a JSON array of {jcs, sorted_json}: each the encoding's bytes in hex, or null when it refuses.
import { ENCODINGS, JCS, SORTED_JSON } from "../../api/static/verifier/canonical.mjs";
import { parseLossless } from "../../api/static/verifier/lossless.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const hex = (text) => Buffer.from(text, "utf8").toString("hex");
const attempt = (encode, value) => {
  try {
    return hex(encode(value));
  } catch {
    return null;
  }
};
const values = parseLossless(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(values.map((v) => ({ jcs: attempt(ENCODINGS[JCS], v), sorted_json: attempt(ENCODINGS[SORTED_JSON], v) }))));
