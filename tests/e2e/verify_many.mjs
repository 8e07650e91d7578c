// Test helper: the JavaScript verifier's outcome (outcome.mjs, what cli.mjs prints) for many
// exports in one Node process. Reads [[path, head or null], ...] as JSON on stdin; writes
// [{code, out, err}, ...] as JSON on stdout.
import { readFile } from "node:fs/promises";
import { outcome } from "../../api/static/verifier/outcome.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const results = [];
for (const [path, head] of JSON.parse(Buffer.concat(chunks).toString("utf8"))) {
  results.push(await outcome(await readFile(path, "utf8"), head));
}
process.stdout.write(JSON.stringify(results));
