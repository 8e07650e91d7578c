// Verification in this browser (issue 19, VERIFYING.md): the page fetches the export and runs
// the JavaScript verifier on it (the hash chain, every revealed seed against its commitment,
// every server roll recomputed die by die), here, without trusting the server's word; the chain
// head the page saw earlier is checked to still be in the log.
import { verify, summary, VerificationFailed } from "/app/verifier/verify.mjs";
import { CHECKS } from "/app/verifier/checks.mjs";
import { h } from "./dom.mjs";

export async function verifyText(text, keptHead = null) {
  try {
    const report = await verify(text, keptHead, CHECKS);
    return { ok: true, report, message: summary(report) };
  } catch (error) {
    if (error instanceof VerificationFailed) return { ok: false, version: error.version, message: error.message };
    return { ok: false, version: null, message: String(error && error.message ? error.message : error) };
  }
}

export function renderVerdict(result) {
  return h("div", { class: result.ok ? "verdict ok" : "verdict failed", role: "status", "data-test": "verdict", dataset: { ok: String(result.ok) } },
    h("strong", {}, result.ok ? "Verified: " : "Does not check out: "),
    h("span", { class: "pre" }, result.message));
}

// A form to check any export file (a tampered one included) with the same verifier.
export function fileChecker() {
  const out = h("div", { "aria-live": "polite" });
  const input = h("input", { type: "file", accept: "application/json,.json", id: "export-file" });
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    out.replaceChildren(h("p", {}, "Checking…"));
    out.replaceChildren(renderVerdict(await verifyText(await file.text())));
  });
  return h("div", { class: "field" }, h("label", { for: "export-file" }, "Check an export file"), input, out);
}
