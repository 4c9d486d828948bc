import { z } from "zod";

export const CreateWorkspaceInput = z.strictObject({
  name: z.string().trim().min(1).max(200).describe("Workspace name"),
  description: z.string().max(10_000).nullable().optional(),
  organization_id: z.uuid().optional().describe("Defaults to the caller's active organization"),
  path: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("An Open Exchange XML file to import (server-side path the deployment allows)"),
});
export type CreateWorkspaceInput = z.infer<typeof CreateWorkspaceInput>;

export const UpdateWorkspaceInput = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(10_000).nullable().optional(),
});
export type UpdateWorkspaceInput = z.infer<typeof UpdateWorkspaceInput>;

export const Workspace = z.object({
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  active: z.boolean(),
});
export type Workspace = z.infer<typeof Workspace>;

/** GET /api: the active workspace, the model's metadata and its counts (all null without an active workspace). */
export const ModelInfo = z.looseObject({
  workspace: Workspace.nullable(),
  organization_id: z.string(),
  model: z
    .looseObject({
      identifier: z.string().nullable(),
      name: z.string(),
      documentation: z.string().nullable(),
      version: z.string().nullable(),
      metadata: z.array(z.unknown()),
    })
    .nullable(),
  counts: z.record(z.string(), z.number()).nullable(),
  draft: z
    .object({
      base_workspace_id: z.string().nullable(),
      base_name: z.string(),
      base_revision: z.number().int(),
      state: z.string(),
    })
    .nullable()
    .optional()
    .describe("When the active workspace is a draft: its base and state (GET /api/drafts/:id for the rest)"),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const SaveResult = z.object({ saved: z.boolean(), message: z.string() });
export type SaveResult = z.infer<typeof SaveResult>;

export const DeletedWorkspace = z.object({
  closed_drafts: z.number().int().describe("Open drafts of the workspace that were closed (kept read-only for export)"),
});
export type DeletedWorkspace = z.infer<typeof DeletedWorkspace>;
