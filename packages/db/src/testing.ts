import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type Database, openDatabase } from "./open.ts";

/** Where tests find a real PostgreSQL server (a maintenance database they may create databases from). */
export const testServerUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type TestDatabase = Database & { url: string; drop(): Promise<void> };

/** A fresh, migrated database on the real test server; drop() closes and removes it. */
export async function createTestDatabase(prefix = "ams_test"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(testServerUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), maxConnections: 5 });
  return {
    ...database,
    url: url.toString(),
    async drop() {
      await database.close();
      const cleanup = postgres(testServerUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end({ timeout: 5 });
      }
    },
  };
}
