// What `chase verify` says of an export, as text: the summary and the OK line (exit code 0), or
// "FAILED at event V: reason" (exit code 1). cli.mjs prints it; a browser can show it.
import { CHECKS } from "./checks.mjs";
import { VerificationFailed, summary, verify } from "./verify.mjs";
import { pyStr } from "./python.mjs";

export async function outcome(exportText, head = null) {
  try {
    const report = await verify(exportText, head, CHECKS);
    return { code: 0, out: `${summary(report)}\nOK: the chain, the seeds and every recomputable server roll check out\n`, err: "" };
  } catch (e) {
    if (!(e instanceof VerificationFailed)) throw e;
    return { code: 1, out: "", err: `FAILED at event ${pyStr(e.version)}: ${e.reason}\n` };
  }
}
