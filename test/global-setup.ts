import { ensureWebBuild } from "../apps/web/build.ts";
import { missingCorpusMessage } from "../scripts/test-preflight.ts";

/**
 * Stops the whole run at once, with one line naming the folder, when the interoperability corpus is missing (rather
 * than dozens of file-not-found failures). Exits instead of throwing so that the line is not buried in a stack trace.
 */
export default async function setup() {
  const message = missingCorpusMessage();
  if (message) {
    console.error(message);
    process.exit(1);
  }
  // The browser UI suites serve apps/web/dist: build it once here, not in each test file at the same time.
  await ensureWebBuild();
}
