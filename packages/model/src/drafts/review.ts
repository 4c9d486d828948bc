import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { actorOf } from "../history/change.ts";
import { closeDraft, getDraftOf, lockDraft, requireOpen } from "./internal.ts";
import type { CommentInput, Draft, DraftComment, DraftDetail, DraftReview, ReviewInput } from "./schemas.ts";

const iso = (d: Date | string) => new Date(d).toISOString();

/** GET /api/drafts/:id: the draft with its reviews and comments, oldest first. */
export async function getDraft({ ctx }: Verb): Promise<DraftDetail> {
  requireCapability(ctx, "model:read");
  const id = requireWorkspace(ctx);
  const draft = await getDraftOf(ctx, id);
  const reviews = await ctx.database.rows<{
    id: string;
    reviewer_id: string;
    reviewer_name: string | null;
    decision: DraftReview["decision"];
    comment: string;
    created_at: Date | string;
  }>(
    sql`select id, reviewer_id, reviewer_name, decision, comment, created_at from draft_reviews
        where draft_id = ${id} order by created_at, id`,
  );
  const comments = await ctx.database.rows<{
    id: string;
    author_id: string | null;
    author_name: string | null;
    object_id: string | null;
    text: string;
    created_at: Date | string;
  }>(
    sql`select id, author_id, author_name, object_id, text, created_at from draft_comments
        where draft_id = ${id} order by created_at, id`,
  );
  return {
    ...draft,
    reviews: reviews.map((r) => ({
      id: r.id,
      reviewer: { id: r.reviewer_id, name: r.reviewer_name },
      decision: r.decision,
      comment: r.comment,
      created_at: iso(r.created_at),
    })),
    comments: comments.map(toComment),
  };
}

const toComment = (r: {
  id: string;
  author_id: string | null;
  author_name: string | null;
  object_id: string | null;
  text: string;
  created_at: Date | string;
}): DraftComment => ({
  id: r.id,
  author: { id: r.author_id, name: r.author_name },
  object_id: r.object_id,
  text: r.text,
  created_at: iso(r.created_at),
});

/** POST /api/drafts/:id/submit: the draft is ready for review (still takes changes until merged). */
export async function submitDraft({ ctx }: Verb): Promise<Draft> {
  requireCapability(ctx, "model:write");
  const id = requireWorkspace(ctx);
  await ctx.database.db.transaction(async (tx) => {
    const draft = await lockDraft(ctx, tx, id);
    requireOpen(draft, "submitted");
    await ctx.database.rows(
      sql`update drafts set state = 'submitted', submitted_at = coalesce(submitted_at, now()) where workspace_id = ${id}`,
      tx,
    );
  });
  return getDraftOf(ctx, id);
}

/**
 * POST /api/drafts/:id/reviews: approve or request changes. Owners, admins and editors review; a reviewer's latest
 * review counts, and the author's own approval never counts toward the organization's required approvals.
 */
export async function reviewDraft({ ctx, input }: Verb<ReviewInput>): Promise<DraftReview> {
  requireCapability(ctx, "model:write");
  const id = requireWorkspace(ctx);
  const draft = await getDraftOf(ctx, id);
  requireOpen(draft, "reviewed");
  if (!ctx.userId) throw new AppError("FORBIDDEN", "A review needs a signed-in person");
  const actor = actorOf(ctx);
  const [row] = await ctx.database.rows<{ id: string; created_at: Date | string }>(
    sql`insert into draft_reviews (draft_id, reviewer_id, reviewer_name, decision, comment)
        values (${id}, ${ctx.userId}, ${actor.name}, ${input.decision}, ${input.comment ?? ""})
        returning id, created_at`,
  );
  if (!row) throw new AppError("INTERNAL", "The review was not recorded");
  return {
    id: row.id,
    reviewer: { id: ctx.userId, name: actor.name },
    decision: input.decision,
    comment: input.comment ?? "",
    created_at: iso(row.created_at),
  };
}

/** POST /api/drafts/:id/comments: a comment on the draft, or on one object it changed (object_id). */
export async function commentOnDraft({ ctx, input }: Verb<CommentInput>): Promise<DraftComment> {
  requireCapability(ctx, "model:read");
  const id = requireWorkspace(ctx);
  await getDraftOf(ctx, id);
  const objectId = input.object_id ?? null;
  if (objectId) {
    const [known] = await ctx.database.rows(
      sql`select 1 from change_entries where workspace_id = ${id} and (object_id = ${objectId} or owner_id = ${objectId})
          limit 1`,
    );
    if (!known)
      throw new AppError("VALIDATION", `object_id: the draft did not change '${objectId}'`, {
        errors: [{ path: "object_id", message: `the draft did not change '${objectId}'` }],
      });
  }
  const actor = actorOf(ctx);
  const [row] = await ctx.database.rows<{ id: string; created_at: Date | string }>(
    sql`insert into draft_comments (draft_id, author_id, author_name, object_id, text)
        values (${id}, ${actor.id}, ${actor.name}, ${objectId}, ${input.text}) returning id, created_at`,
  );
  if (!row) throw new AppError("INTERNAL", "The comment was not recorded");
  return toComment({ ...row, author_id: actor.id, author_name: actor.name, object_id: objectId, text: input.text });
}

/** POST /api/drafts/:id/discard: its author or an owner closes it unmerged (kept read-only with its history). */
export async function discardDraft({ ctx }: Verb): Promise<Draft> {
  requireCapability(ctx, "model:write");
  const id = requireWorkspace(ctx);
  await ctx.database.db.transaction(async (tx) => {
    const draft = await lockDraft(ctx, tx, id);
    const owner = ctx.platformAdmin || ctx.role === "owner" || ctx.role === "admin";
    if (draft.author.id !== ctx.userId && !owner)
      throw new AppError("FORBIDDEN", `Only its author or an owner discards draft '${draft.name}'`);
    requireOpen(draft, "discarded");
    await closeDraft(ctx, tx, draft, "discarded", `Draft '${draft.name}' was discarded`);
  });
  return getDraftOf(ctx, id);
}
