import type { Database, DbOrTx } from "@ams/db";
import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";

/** What an update or delete verb takes besides its fields: the revision the caller last saw of the object. */
export type ExpectedRevision = {
  /**
   * The object's revision as the caller last read it (REST: If-Match; MCP: expected_revision). The write happens only
   * if the object is still at it; otherwise PRECONDITION_FAILED with the object as it is now. Absent: no check.
   */
  expected_revision?: number;
};

/** The tables of the objects a caller can update or delete one by one. */
type ObjectTable = "elements" | "relationships" | "views" | "view_nodes" | "connections" | "property_definitions";

/**
 * Optimistic concurrency, checked in the write's own transaction (call it inside withChange, before writing): locks
 * the object's row and compares its revision with the expected one. The open change group already holds the
 * workspace's row lock, so of two writers that expect the same revision the second waits, then reads the first's
 * committed revision and is refused. A missing object is left to the verb (its own NOT_FOUND). The refusal carries
 * `current()`, read in the same transaction under the lock: exactly the state the expectation failed against.
 */
export async function expectRevision(
  database: Database,
  tx: DbOrTx,
  target: { table: ObjectTable; workspaceId: string; id: string; what: string },
  expected: number | undefined,
  current: () => Promise<{ revision: number }>,
): Promise<void> {
  if (expected === undefined) return;
  const [row] = await database.rows<{ revision: number | string }>(
    sql`select revision from ${sql.raw(target.table)}
        where workspace_id = ${target.workspaceId} and id = ${target.id} for update`,
    tx,
  );
  if (!row || Number(row.revision) === expected) return;
  const now = await current();
  throw new AppError(
    "PRECONDITION_FAILED",
    `${target.what} '${target.id}' was changed by someone else: you expected revision ${expected}, it is at revision ` +
      `${now.revision} now. Nothing was written; merge your change into the current object and send it again ` +
      `with revision ${now.revision}`,
    { current: now },
  );
}
