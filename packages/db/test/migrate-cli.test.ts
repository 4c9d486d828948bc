import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MIGRATION_LOCK_KEY } from "../src/index.ts";
import { testServerUrl } from "../src/testing.ts";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../src/migrate-cli.ts", import.meta.url));
const name = `ams_migrate_cli_${randomBytes(5).toString("hex")}`;
const url = Object.assign(new URL(testServerUrl), { pathname: `/${name}` }).toString();
const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });

async function migrate(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli], { env: { ...process.env, ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

beforeAll(async () => {
  await admin.unsafe(`create database "${name}"`);
});
afterAll(async () => {
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
});

describe("migrate command (the chart's pre-install/pre-upgrade Job)", () => {
  test("migrates an empty database, then finds nothing to do", async () => {
    const first = await migrate({ DATABASE_URL: url });
    expect(first).toMatchObject({ code: 0 });
    expect(first.out).toMatch(/database is up to date/);
    const db = postgres(url, { max: 1 });
    const [row] = await db`select count(*)::int as n from information_schema.tables where table_name = 'users'`;
    await db.end();
    expect(row?.n).toBe(1);
    expect(await migrate({ DATABASE_URL: url })).toMatchObject({ code: 0 });
    // Two process starts and every migration from empty: a loaded two-core machine took more than the default 30 s.
  }, 120_000);

  test("gives up after the lock timeout, naming the session that holds the migration lock", async () => {
    const holder = postgres(url, { max: 1, connection: { application_name: "stuck-migration" } });
    await holder`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      const started = Date.now();
      const result = await migrate({ DATABASE_URL: url, MIGRATION_LOCK_TIMEOUT_S: "1" });
      expect(result.code, result.out).toBe(1);
      expect(result.out, result.out).toMatch(/waited 1 s for the migration lock .* held by pid \d+ \(stuck-migration/);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await holder.end();
    }
  }, 60_000);

  test("refuses a missing DATABASE_URL with exit code 2", async () => {
    const result = await migrate({ DATABASE_URL: "" });
    expect(result).toMatchObject({ code: 2 });
    expect(result.out).toMatch(/DATABASE_URL must be the postgres:\/\/ URL/);
  });
});
