import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { diffPoints } from "../history/diff.ts";
import type { ModelDiff } from "../history/schemas.ts";
import { getDraftOf } from "./internal.ts";

/**
 * GET /api/drafts/:id/changes: what the draft changed since its fork, in the history's diff shape. The draft's own
 * change log holds exactly that (it starts empty at the fork), so the cost follows the changes, not the model:
 * `from` is the base's revision at the fork, `to` the draft's own revision.
 */
export async function draftChanges({ ctx }: Verb): Promise<ModelDiff> {
  requireCapability(ctx, "model:read");
  const id = requireWorkspace(ctx);
  return ctx.database.db.transaction(
    async (tx) => {
      const draft = await getDraftOf(ctx, id, tx);
      const [row] = await ctx.database.rows<{ revision: string | number }>(
        sql`select revision from workspaces where id = ${id}`,
        tx,
      );
      const revision = Number(row?.revision ?? 0);
      const diff = await diffPoints(ctx, id, { revision: 0, version: null }, { revision, version: null }, tx);
      return { ...diff, from: { revision: draft.base_revision, version: null } };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}
