import { sql } from "drizzle-orm";
import { bigint } from "drizzle-orm/pg-core";

/**
 * The change-log revision of a content row's last change. An insert takes it from the transaction's open change
 * group (the setting ams.revision, set by packages/model's withChange); an update gets it from the BEFORE UPDATE
 * trigger of migration 0018. 0 for rows older than the change log.
 */
export const revisionColumn = () =>
  bigint("revision", { mode: "number" })
    .notNull()
    .default(sql`coalesce(nullif(current_setting('ams.revision', true), ''), '0')::bigint`);
