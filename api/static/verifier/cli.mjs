#!/usr/bin/env node
// node api/static/verifier/cli.mjs EXPORT.json [--head HASH]: `chase verify` in JavaScript. Prints
// the same summary, or "FAILED at event V: reason" on stderr; exit 0 (checks out), 1 (fails), 2
// (cannot read the file).
import { readFile } from "node:fs/promises";
import { outcome } from "./outcome.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--head");
const head = at >= 0 ? args[at + 1] : null;
const file = args.find((a, i) => a !== "--head" && (at < 0 || i !== at + 1));
if (!file || (at >= 0 && head === undefined)) {
  process.stderr.write("usage: cli.mjs EXPORT.json [--head HASH]\n");
  process.exit(2);
}
let text;
try {
  text = await readFile(file, "utf8");
  JSON.parse(text);
} catch (e) {
  process.stderr.write(`cannot read ${file}: ${e.message}\n`);
  process.exit(2);
}
const { code, out, err } = await outcome(text, head);
process.stdout.write(out);
process.stderr.write(err);
process.exitCode = code;
