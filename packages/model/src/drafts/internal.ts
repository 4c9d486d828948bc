import type { DbOrTx } from "@ams/db";
import { AppError, notFound } from "@ams/shared";
import { type SQL, sql } from "drizzle-orm";
import type { RequestContext } from "../context.ts";
import { visibleWorkspace } from "../workspaces/internal.ts";
import type { Draft, DraftStates } from "./schemas.ts";

export type DraftRow = {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  revision: string | number;
  base_workspace_id: string | null;
  base_name: string;
  base_revision: string | number;
  state: (typeof DraftStates)[number];
  author_id: string | null;
  author_name: string | null;
  via_kind: string | null;
  via_name: string | null;
  created_at: Date | string;
  submitted_at: Date | string | null;
  closed_at: Date | string | null;
  closed_reason: string | null;
  merged_revision: string | number | null;
  changes: string | number;
  approvals: string | number;
  approvals_required: string | number;
  changes_requested: string | number;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The latest review of each reviewer who may approve (an owner, admin or editor of the organization now, not the
 * draft's author): what counts toward the organization's approvals.
 */
const latestReviews = (draft: SQL) => sql`(
  select distinct on (r.reviewer_id) r.reviewer_id, r.decision from draft_reviews r
  join memberships m on m.user_id = r.reviewer_id and m.organization_id = d.organization_id
    and m.role in ('owner', 'admin', 'editor')
  where r.draft_id = ${draft} and r.reviewer_id is distinct from d.author_id
  order by r.reviewer_id, r.created_at desc)`;

/** The columns of a Draft over `drafts d join workspaces w on w.id = d.workspace_id join organizations o`. */
const draftColumns = sql`w.id, w.organization_id, w.name, w.description, w.revision, d.base_workspace_id,
  coalesce(b.name, d.base_name) as base_name, d.base_revision, d.state, d.author_id, d.author_name, d.via_kind,
  d.via_name, d.created_at, d.submitted_at, d.closed_at, d.closed_reason, d.merged_revision,
  (select count(*) from (select distinct kind, object_id from change_entries e where e.workspace_id = w.id) x) as changes,
  (select count(*) from ${latestReviews(sql`d.workspace_id`)} lr where lr.decision = 'approve') as approvals,
  (select count(*) from ${latestReviews(sql`d.workspace_id`)} lr where lr.decision = 'request_changes')
    as changes_requested,
  o.draft_approvals_required as approvals_required`;

const draftFrom = sql`from drafts d join workspaces w on w.id = d.workspace_id
  join organizations o on o.id = d.organization_id
  left join workspaces b on b.id = d.base_workspace_id`;

export function toDraft(r: DraftRow): Draft {
  return {
    id: r.id,
    organization_id: r.organization_id,
    name: r.name,
    description: r.description,
    base_workspace_id: r.base_workspace_id,
    base_name: r.base_name,
    base_revision: Number(r.base_revision),
    revision: Number(r.revision),
    state: r.state,
    author: { id: r.author_id, name: r.author_name, via: { kind: r.via_kind ?? "system", name: r.via_name } },
    created_at: iso(r.created_at) ?? "",
    submitted_at: iso(r.submitted_at),
    closed_at: iso(r.closed_at),
    closed_reason: r.closed_reason,
    merged_revision: r.merged_revision === null ? null : Number(r.merged_revision),
    changes: Number(r.changes),
    approvals: Number(r.approvals),
    approvals_required: Number(r.approvals_required),
    changes_requested: Number(r.changes_requested),
  };
}

/** The visibility rule of workspaces, over the draft's workspace alias `w`. */
function visible(ctx: RequestContext): SQL {
  // visibleWorkspace speaks of `workspaces.id`; the draft is seen where its own workspace is.
  return sql`exists (select 1 from workspaces where workspaces.id = w.id and ${visibleWorkspace(ctx)})`;
}

/** Drafts matching `where` (over d, w), in the caller's organization and visible to them, oldest first. */
export async function selectDrafts(ctx: RequestContext, where: SQL, on?: DbOrTx): Promise<Draft[]> {
  const org = ctx.organizationId;
  if (!org) return [];
  const rows = await ctx.database.rows<DraftRow>(
    sql`select ${draftColumns} ${draftFrom}
        where d.organization_id = ${org} and ${where} and ${visible(ctx)}
        order by d.created_at, w.id`,
    on,
  );
  return rows.map(toDraft);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One draft of the caller's organization; 404 when it is none (another organization's, an ordinary workspace). */
export async function getDraftOf(ctx: RequestContext, id: string, on?: DbOrTx): Promise<Draft> {
  const [draft] = UUID.test(id) ? await selectDrafts(ctx, sql`d.workspace_id = ${id}`, on) : [];
  if (!draft) throw notFound("Draft", id);
  return draft;
}

/** The draft's own workspace row locked for the rest of the transaction (merge, discard, submit), and the draft. */
export async function lockDraft(ctx: RequestContext, tx: DbOrTx, id: string): Promise<Draft> {
  await ctx.database.rows(sql`select 1 from workspaces where id = ${id} for update`, tx);
  return getDraftOf(ctx, id, tx);
}

/** 409 unless the draft still takes changes (open or submitted). */
export function requireOpen(draft: Draft, doing: string): void {
  if (draft.state === "open" || draft.state === "submitted") return;
  throw new AppError("CONFLICT", `Draft '${draft.name}' is ${draft.state}: it cannot be ${doing}`);
}

/** The read-only reason a closed draft's workspace keeps (the change log answers it to every write as 409). */
export async function closeDraft(
  ctx: RequestContext,
  tx: DbOrTx,
  draft: Draft,
  state: "merged" | "discarded" | "closed",
  reason: string,
  extra: { mergedRevision?: number } = {},
): Promise<void> {
  await ctx.database.rows(
    sql`update drafts set state = ${state}, closed_at = now(), closed_reason = ${reason},
          merged_revision = ${extra.mergedRevision ?? null}, merged_by = ${state === "merged" ? ctx.userId || null : null}
        where workspace_id = ${draft.id}`,
    tx,
  );
  await ctx.database.rows(
    sql`update workspaces set read_only_reason = ${`${reason}: the draft is read-only`} where id = ${draft.id}`,
    tx,
  );
}
