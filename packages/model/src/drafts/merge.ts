import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { applyStates } from "../history/apply.ts";
import { actorOf, recordClosedChange } from "../history/change.ts";
import { getWorkspaceRow } from "../workspaces/internal.ts";
import { closeDraft, getDraftOf, lockDraft, requireOpen } from "./internal.ts";
import type { Draft, DraftConflicts, MergeDraftInput, MergeResult } from "./schemas.ts";
import { planMerge, validateMerge } from "./three-way.ts";

/** The draft's base, which the caller must see; 409 when it is gone (the draft was closed with it). */
async function baseOf(ctx: RequestContext, draft: Draft, on?: Parameters<typeof getWorkspaceRow>[3]) {
  if (!draft.base_workspace_id)
    throw new AppError("CONFLICT", `Draft '${draft.name}': its base workspace '${draft.base_name}' was deleted`);
  if (!ctx.organizationId) throw new AppError("FORBIDDEN", "You are not a member of any organization");
  return getWorkspaceRow(ctx, ctx.organizationId, draft.base_workspace_id, on);
}

/**
 * GET /api/drafts/:id/conflicts: what merging now would need decided — the same field changed on both sides, an
 * object deleted on one side and changed on the other, a reference to an object the other side deleted. Read in
 * one snapshot of both workspaces.
 */
export async function draftConflicts({ ctx }: Verb): Promise<DraftConflicts> {
  requireCapability(ctx, "model:read");
  const id = requireWorkspace(ctx);
  return ctx.database.db.transaction(
    async (tx) => {
      const draft = await getDraftOf(ctx, id, tx);
      const base = await baseOf(ctx, draft, tx);
      const [row] = await ctx.database.rows<{ revision: string | number }>(
        sql`select revision from workspaces where id = ${base.id}`,
        tx,
      );
      const plan = await planMerge(ctx.database, tx, draft.id, base.id, draft.base_revision);
      return {
        base_revision: draft.base_revision,
        current_revision: Number(row?.revision ?? 0),
        conflicts: plan.conflicts,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * POST /api/drafts/:id/merge: the draft's changes into its base as ONE change group of the base ("Merged draft
 * 'Target 2027' (reviewed by A, B)"), written through applyStates like restore and revert. The draft's workspace row
 * is locked first (a second merge of it waits, then finds it merged: 409), then the base's (the change group's
 * lock): the three-way plan is read after both, so every write of the base that committed before is merged or
 * reported as a conflict, and every later one waits for the merge and lands on top of it. Afterwards the draft is
 * merged: read-only, kept with its history.
 */
export async function mergeDraft({ ctx, input }: Verb<MergeDraftInput>): Promise<MergeResult> {
  requireCapability(ctx, "model:write");
  const id = requireWorkspace(ctx);
  const { database } = ctx;
  const result = await database.db.transaction(async (tx) => {
    const draft = await lockDraft(ctx, tx, id);
    requireOpen(draft, "merged");
    const base = await baseOf(ctx, draft, tx);
    if (draft.approvals < draft.approvals_required)
      throw new AppError(
        "CONFLICT",
        `Draft '${draft.name}' needs ${draft.approvals_required} approval${draft.approvals_required === 1 ? "" : "s"} ` +
          `from owners or editors other than its author before it is merged; it has ${draft.approvals}`,
      );
    // Its reviewers: the latest review of each person other than its author (whose own approval is no review).
    const reviewers = await database.rows<{ name: string; decision: string }>(
      sql`select distinct on (reviewer_id) coalesce(reviewer_name, reviewer_id) as name, decision from draft_reviews
          where draft_id = ${draft.id} and reviewer_id is distinct from ${draft.author.id}
          order by reviewer_id, created_at desc`,
      tx,
    );
    const approvedBy = reviewers.filter((r) => r.decision === "approve");
    const summary =
      `Merged draft '${draft.name}'` +
      (approvedBy.length ? ` (reviewed by ${approvedBy.map((r) => r.name).join(", ")})` : "");
    const { closed } = await recordClosedChange(database, tx, base.id, actorOf(ctx), summary, async (t) => {
      const plan = await planMerge(database, t, draft.id, base.id, draft.base_revision, input.resolutions ?? {});
      if (plan.invalid.length > 0)
        throw new AppError(
          "VALIDATION",
          `Unknown or unfitting resolutions: ${plan.invalid.map((e) => `${e.path} (${e.message})`).join("; ")}`,
          { errors: plan.invalid },
        );
      if (plan.conflicts.length > 0)
        throw new AppError(
          "CONFLICT",
          `Draft '${draft.name}' conflicts with changes made to '${base.name}' since the fork: ` +
            `${plan.conflicts.length} to resolve (GET /api/drafts/${draft.id}/conflicts; send resolutions)`,
          { errors: plan.conflicts.map((c) => ({ path: c.key, message: c.message })) },
        );
      await validateMerge(database, t, base.id, plan.states);
      try {
        return await applyStates(database, t, base.id, plan.states);
      } catch (error) {
        if (error instanceof AppError && error.code === "CONFLICT")
          throw new AppError("VALIDATION", `The merged model would not be valid: ${error.message}`);
        throw error;
      }
    });
    await closeDraft(ctx, tx, draft, "merged", `Draft '${draft.name}' was merged into '${base.name}'`, {
      mergedRevision: closed.revision,
    });
    return { revision: closed.revision, summary: closed.summary, objects: closed.objects };
  });
  return { ...result, draft: await getDraftOf(ctx, id) };
}
