import {
  assistantDraft,
  CreateDraftInput,
  Draft,
  type Draft as DraftType,
  draftChanges,
  forkDraft,
  getDraftOf,
  listDrafts,
  ModelDiff,
  type RequestContext,
  submitDraft,
} from "@ams/model";
import { AppError } from "@ams/shared";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { CREATE, data, defineTool, READ, SWITCH, type ToolCall } from "./define.ts";

const DraftId = z.uuid().describe("The draft's id (its own workspace id; list_drafts names them)");

/** The draft's context: the caller's organization's draft, which a token pinned to its base also reaches. */
async function inDraft(ctx: RequestContext, id: string): Promise<RequestContext> {
  const draft = await getDraftOf({ ...ctx, workspaceId: id }, id);
  const pinned = ctx.pinnedWorkspaceId;
  if (pinned && draft.id !== pinned && draft.base_workspace_id !== pinned)
    throw new AppError("NOT_FOUND", `Draft '${id}' not found`);
  return { ...ctx, workspaceId: draft.id, pinnedWorkspaceId: pinned ? draft.id : null };
}

export const review = (d: DraftType) =>
  `Draft '${d.name}' of '${d.base_name}' (${d.changes} change${d.changes === 1 ? "" : "s"}, ${d.state}): its ` +
  "changes await review by a person, who merges them into the workspace or not.";

export const draftTools = [
  defineTool({
    name: "create_draft",
    title: "Fork the workspace into a draft",
    description:
      "Forks the workspace (the active one, or workspace_id) into a draft: a copy to prepare a change in without " +
      "anyone seeing it half-done. Work in it by passing its id as workspace_id to the other tools; a person " +
      "reviews its changes (get_draft_changes) and merges them. submit_draft marks it ready for review.",
    input: CreateDraftInput,
    output: Draft,
    annotations: CREATE,
    run: async ({ ctx }, args) => {
      const draft = await forkDraft({ ctx, input: args });
      return withNote(data(draft), review(draft));
    },
  }),
  defineTool({
    name: "list_drafts",
    title: "List the workspace's drafts",
    description: "The drafts of the workspace (the active one, or workspace_id), every state, oldest first.",
    input: z.strictObject({}),
    output: z.object({ drafts: z.array(Draft) }),
    annotations: READ,
    run: async ({ ctx }) => data({ drafts: await listDrafts({ ctx }) }),
  }),
  defineTool({
    name: "get_draft_changes",
    title: "What a draft changed",
    description:
      "What the draft changed since its fork, as diff_versions answers: per kind added, removed and changed (fields " +
      "before and after), per view its nodes and connections.",
    input: z.strictObject({ draft_id: DraftId }),
    output: ModelDiff,
    annotations: READ,
    run: async ({ ctx }, { draft_id }) => data(await draftChanges({ ctx: await inDraft(ctx, draft_id) })),
  }),
  defineTool({
    name: "submit_draft",
    title: "Submit a draft for review",
    description: "Marks the draft ready for review; a person then approves and merges it (or not).",
    input: z.strictObject({ draft_id: DraftId }),
    output: Draft,
    annotations: SWITCH,
    run: async ({ ctx }, { draft_id }) => {
      const draft = await submitDraft({ ctx: await inDraft(ctx, draft_id) });
      return withNote(data(draft), review(draft));
    },
  }),
];

/** A tool result with a line for the assistant after its data. */
export function withNote(result: CallToolResult, note: string): CallToolResult {
  return { ...result, content: [...result.content, { type: "text", text: note }] };
}

/** The names of the draft tools: they choose their draft themselves. */
export const DRAFT_TOOL_NAMES = new Set(draftTools.map((t) => t.name));

/**
 * The call to run where the organization has assistants write to drafts and the caller is an assistant: in the
 * conversation's draft (packages/model drafts/assistant.ts), with a token pinned to the base pinned to the draft
 * for this call. Null: the call runs as it is.
 */
export async function proposalCall(
  call: ToolCall,
  write: boolean,
): Promise<{ call: ToolCall; draft: DraftType } | null> {
  const { ctx, claims } = call;
  if (!claims.apiTokenId) return null;
  const draft = await assistantDraft(ctx, claims.apiTokenId, write);
  if (!draft) return null;
  const pinned = ctx.pinnedWorkspaceId ? draft.id : null;
  return { call: { ...call, ctx: { ...ctx, workspaceId: draft.id, pinnedWorkspaceId: pinned } }, draft };
}
