#!/usr/bin/env node
// node api/static/verifier/cli.mjs EXPORT.json [--head HASH]: `chase verify` in JavaScript. Prints
// the same summary, or "FAILED at event V: reason" on stderr; exit 0 (checks out), 1 (fails), 2
// (cannot read the file).
import { readFile } from "node:fs/promises";
import { CHECKS } from "./checks.mjs";
import { VerificationFailed, summary, verify } from "./verify.mjs";
import { pyStr } from "./python.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--head");
const head = at >= 0 ? args[at + 1] : null;
const file = args.find((a, i) => a !== "--head" && (at < 0 || i !== at + 1));
if (!file || (at >= 0 && head === undefined)) {
  process.stderr.write("usage: cli.mjs EXPORT.json [--head HASH]\n");
  process.exit(2);
}
let exported;
try {
  exported = await readFile(file, "utf8");
  JSON.parse(exported);
} catch (e) {
  process.stderr.write(`cannot read ${file}: ${e.message}\n`);
  process.exit(2);
}
try {
  const report = await verify(exported, head, CHECKS);
  process.stdout.write(summary(report) + "\n");
  process.stdout.write("OK: the chain, the seeds and every recomputable server roll check out\n");
} catch (e) {
  if (!(e instanceof VerificationFailed)) throw e;
  process.stderr.write(`FAILED at event ${pyStr(e.version)}: ${e.reason}\n`);
  process.exit(1);
}
