import {
  CommentInput,
  CreateDraftInput,
  commentOnDraft,
  DraftComment,
  DraftConflicts,
  DraftDetail,
  DraftReview,
  Draft as DraftSchema,
  discardDraft,
  draftChanges,
  draftConflicts,
  forkDraft,
  getDraft,
  listDrafts,
  MergeDraftInput,
  MergeResult,
  ModelDiff,
  mergeDraft,
  type RequestContext,
  ReviewInput,
  reviewDraft,
  submitDraft,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { IdParam, type TenantApp } from "./openapi.ts";

const tags = ["Drafts and review"];

/** The workspace the gateway authorized (path :id); the context names it, anything else is not found. */
function inWorkspace(ctx: RequestContext, id: string, what = "Workspace"): RequestContext {
  if (ctx.workspaceId !== id) throw new AppError("NOT_FOUND", `${what} '${id}' not found`);
  return ctx;
}
const inDraft = (ctx: RequestContext, id: string) => inWorkspace(ctx, id, "Draft");

export function registerDraftRoutes(app: TenantApp) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/workspaces/{id}/drafts",
      tags,
      operationId: "createDraft",
      description:
        "Forks the workspace into a draft at its current revision: a workspace of its own (same object ids) that " +
        "every surface works on (activate it, or pass its id as workspace_id), listed under its base only.",
      params: IdParam,
      body: CreateDraftInput,
      output: { schema: DraftSchema, status: 201, description: "Forked" },
    },
    (c, { params, body }) => forkDraft({ ctx: inWorkspace(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/workspaces/{id}/drafts",
      tags,
      operationId: "listDrafts",
      description: "The workspace's drafts, every state (open, submitted, merged, discarded, closed), oldest first.",
      params: IdParam,
      output: { schema: z.array(DraftSchema), description: "Drafts of the workspace" },
    },
    (c, { params }) => listDrafts({ ctx: inWorkspace(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/drafts/{id}",
      tags,
      operationId: "getDraft",
      params: IdParam,
      output: { schema: DraftDetail, description: "The draft with its reviews and comments" },
    },
    (c, { params }) => getDraft({ ctx: inDraft(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/drafts/{id}/changes",
      tags,
      operationId: "getDraftChanges",
      description:
        "What the draft changed since its fork, in the history's diff shape (`from`: the base's revision at the " +
        "fork, `to`: the draft's own revision).",
      params: IdParam,
      output: { schema: ModelDiff, description: "The draft's changes" },
    },
    (c, { params }) => draftChanges({ ctx: inDraft(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/drafts/{id}/conflicts",
      tags,
      operationId: "getDraftConflicts",
      description:
        "What merging now needs decided, field by field: the same field changed on both sides, an object deleted on " +
        "one side and changed on the other, a reference to an object the other side deleted.",
      params: IdParam,
      output: { schema: DraftConflicts, description: "Conflicts with the base as it is now" },
    },
    (c, { params }) => draftConflicts({ ctx: inDraft(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/drafts/{id}/merge",
      tags,
      operationId: "mergeDraft",
      description:
        "Applies the draft's changes to its base as one change group (three-way: the fork, the draft, the base " +
        "now); the draft is then merged and read-only. 409 lists the conflicts until `resolutions` decides each.",
      params: IdParam,
      body: MergeDraftInput,
      bodyOptional: true,
      output: { schema: MergeResult, description: "Merged" },
      problems: {
        409: "Unresolved conflicts (each named), approvals missing, or the draft is no longer open",
        422: "Unknown resolution keys, or a merged model that would not be valid ArchiMate (each named)",
      },
    },
    (c, { params, body }) => mergeDraft({ ctx: inDraft(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/drafts/{id}/submit",
      tags,
      operationId: "submitDraft",
      description: "Marks the draft ready for review.",
      params: IdParam,
      output: { schema: DraftSchema, description: "Submitted" },
    },
    (c, { params }) => submitDraft({ ctx: inDraft(c.var.ctx, params.id) }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/drafts/{id}/reviews",
      tags,
      operationId: "reviewDraft",
      description:
        "Approves the draft or requests changes. A reviewer's latest review counts; its author's own approval does " +
        "not count toward the organization's required approvals.",
      params: IdParam,
      body: ReviewInput,
      output: { schema: DraftReview, status: 201, description: "Recorded" },
    },
    (c, { params, body }) => reviewDraft({ ctx: inDraft(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/drafts/{id}/comments",
      tags,
      operationId: "commentOnDraft",
      description: "A comment on the draft, or (object_id) on one object it changed.",
      params: IdParam,
      body: CommentInput,
      output: { schema: DraftComment, status: 201, description: "Recorded" },
    },
    (c, { params, body }) => commentOnDraft({ ctx: inDraft(c.var.ctx, params.id), input: body }),
  );
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/drafts/{id}/discard",
      tags,
      operationId: "discardDraft",
      description: "Its author or an owner closes the draft unmerged; it stays, read-only, with its history.",
      params: IdParam,
      output: { schema: DraftSchema, description: "Discarded" },
    },
    (c, { params }) => discardDraft({ ctx: inDraft(c.var.ctx, params.id) }),
  );
}
