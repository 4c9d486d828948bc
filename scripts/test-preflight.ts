/**
 * What `pnpm test` checks before vitest starts, without changing the machine: the interoperability corpus and the
 * services and tools the suite talks to. Anything missing is named in one line and the run stops at once;
 * `./pnpm setup-test-services` installs and starts what it can (root), the corpus has to be put in place.
 * Also imported by the vitest global setup, so a direct `vitest run` stops on a missing corpus the same way.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";

/** The Open Group schemas, Archi's metamodel and the sample models, beside the repository (or ARCHIMATE_DIR). */
export const corpusDir =
  process.env.ARCHIMATE_DIR ?? fileURLToPath(new URL("../../shared/archimate/", import.meta.url));

export function missingCorpusMessage(): string | undefined {
  if (existsSync(`${corpusDir}/xsd`)) return undefined;
  return (
    `pnpm test: the interoperability corpus ${corpusDir} (../shared/archimate/ beside the repository) is missing; ` +
    "the tests read the ArchiMate schemas, metamodel and sample models from it (or set ARCHIMATE_DIR)"
  );
}

const portOpen = (url: string, fallbackPort: number) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname || "127.0.0.1", port: Number(port) || fallbackPort });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });

const hasCommand = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { stdio: "ignore" });
  return !result.error && result.status === 0;
};

/** What the suite needs and cannot find, in words; empty when everything is there. */
export async function missingServices(): Promise<string[]> {
  const database = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const nats = (process.env.NATS_URL ?? "nats://127.0.0.1:4222").replace(/^nats:/, "tcp:");
  const missing: string[] = [];
  if (!(await portOpen(database, 5432))) missing.push(`PostgreSQL at ${new URL(database).host}`);
  if (!(await portOpen(nats, 4222))) missing.push(`NATS JetStream at ${new URL(nats).host}`);
  if (!hasCommand("xmllint", ["--version"])) missing.push("xmllint (libxml2-utils)");
  if (!existsSync("/usr/bin/chromium")) missing.push("Chromium at /usr/bin/chromium");
  if (!hasCommand("java", ["-version"])) missing.push("Java 17+");
  if (!hasCommand("mvn", ["--version"])) missing.push("Maven");
  return missing;
}

if (import.meta.main) {
  const corpus = missingCorpusMessage();
  if (corpus) {
    console.error(corpus);
    process.exit(1);
  }
  const missing = await missingServices();
  if (missing.length > 0) {
    console.error(
      `pnpm test: missing ${missing.join(", ")}; run ./pnpm setup-test-services (installs and starts them, needs root)`,
    );
    process.exit(1);
  }
}
