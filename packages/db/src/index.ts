export { type SQL, sql } from "drizzle-orm";
export { MIGRATION_LOCK_KEY, MigrationLockError } from "./migrate-lock.ts";
export * from "./open.ts";
export * from "./schema/index.ts";
export type * from "./types.ts";
