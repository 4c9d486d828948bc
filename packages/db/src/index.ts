export { type SQL, sql } from "drizzle-orm";
export * from "./open.ts";
export * from "./schema/index.ts";
export type * from "./types.ts";
