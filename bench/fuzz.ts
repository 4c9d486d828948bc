import { runFuzz } from "../test/fuzz/run-fuzz.ts";
import { section, verdict } from "./lib.ts";

/** Issue 13: the hostile-input fuzz of every REST route, as figures (its test asserts the same). */
export async function benchFuzz() {
  section("Fuzz: every published REST route with hostile input (fast-check, fixed seed)");
  const t = performance.now();
  const r = await runFuzz({ runsPerRoute: 60 });
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  verdict(
    "fuzz 5xx count",
    `fuzz: ${r.requests} requests over ${r.operations} operations in ${seconds} s: ${r.serverErrors.length} answered 5xx   target: 0`,
    r.serverErrors.length === 0,
  );
  verdict(
    "fuzz cross-tenant",
    `fuzz: another organization's data ${r.otherOrganizationUnchanged ? "unchanged" : "CHANGED"}   target: unchanged`,
    r.otherOrganizationUnchanged,
  );
}
