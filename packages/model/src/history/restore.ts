import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { applyStates } from "./apply.ts";
import { withClosedChange } from "./change.ts";
import { historyBounds, requireReconstructable } from "./points.ts";
import type { ChangeResult } from "./schemas.ts";
import { statesAfter } from "./states.ts";
import type { Kind } from "./tables.ts";
import { getVersion, insertVersion } from "./versions.ts";

/**
 * Makes the workspace the state a version names, as one new change group (the history keeps both): an automatic
 * version of the state before comes first, in the same transaction, so a failure or crash leaves neither.
 */
export async function restoreVersion({ ctx, input }: Verb<{ version: string }>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const version = await getVersion(ctx, ws, input.version);
  const summary = `Restored version '${version.name}' (revision ${version.revision})`;
  return withClosedChange(ctx, { summary }, async (tx, change) => {
    // Again under the workspace row's lock: a version deleted meanwhile no longer keeps its detail from retention.
    await getVersion(ctx, ws, input.version, tx);
    await insertVersion(
      ctx,
      ws,
      { name: `Before restore of '${version.name}'`, automatic: true, revision: (await change.revision) - 1 },
      tx,
    );
    const states = await statesAfter(ctx.database, ws, version.revision, undefined, tx);
    const objects = await applyStates(ctx.database, tx, ws, states.values());
    return { summary, objects };
  }).then(settledAt);
}

/** The verb's answer at the revision the group closed at (the one before, when it changed nothing). */
const settledAt = ({ out, closed }: { out: Omit<ChangeResult, "revision">; closed: { revision: number } }) => ({
  ...out,
  revision: closed.revision,
});

const KIND_WORDS: Partial<Record<Kind, string>> = { element: "Element", relationship: "Relationship", view: "View" };

/**
 * Brings one element, relationship or view back to its state at `revision` (with its property values and folder
 * entry; a view with its nodes and connections), as a new change group.
 */
export async function restoreObject({
  ctx,
  input,
}: Verb<{ kind: "element" | "relationship" | "view"; id: string; revision: number }>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const bounds = await historyBounds(ctx, ws);
  const word = KIND_WORDS[input.kind] ?? input.kind;
  if (input.revision > bounds.current)
    throw new AppError("VALIDATION", `revision: ${input.revision} is beyond the current revision ${bounds.current}`, {
      errors: [{ path: "revision", message: `beyond the current revision ${bounds.current}` }],
    });
  await requireReconstructable(ctx, ws, "revision", input.revision, bounds.compacted);
  let summary = `Restored ${word.toLowerCase()} '${input.id}' to revision ${input.revision}`;
  return withClosedChange(ctx, { summary }, async (tx, change) => {
    // Again under the workspace row's lock, which a retention compaction takes to move its mark.
    await requireReconstructable(ctx, ws, "revision", input.revision, (await historyBounds(ctx, ws, tx)).compacted, tx);
    const states = await statesAfter(ctx.database, ws, input.revision, { kind: input.kind, objectId: input.id }, tx);
    const own = states.get(`${input.kind}:${input.id}`);
    const exists = await ctx.database.rows<{ name: string | null }>(
      sql`select name from ${sql.raw(`${input.kind === "view" ? "views" : `${input.kind}s`}`)}
          where workspace_id = ${ws} and id = ${input.id}`,
      tx,
    );
    if (own ? !own.row : exists.length === 0)
      throw new AppError("NOT_FOUND", `${word} '${input.id}' did not exist at revision ${input.revision}`);
    // The history names what was restored as people know it: its name then, else its id (an unnamed relationship).
    const then = own ? own.row?.name : exists[0]?.name;
    const name = typeof then === "string" && then.trim() !== "" ? then : null;
    if (name) {
      summary = `Restored ${word.toLowerCase()} '${name}' to revision ${input.revision}`;
      change.summary = summary;
    }
    // A folder entry found through the object (owner_id is the concept it refers to) comes along; other kinds are the
    // object's own content.
    const objects = await applyStates(ctx.database, tx, ws, states.values());
    return { summary, objects };
  }).then(settledAt);
}
