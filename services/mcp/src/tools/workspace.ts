import { activateWorkspace, getModelInfo, listViewpoints, listWorkspaces, saveModel } from "@ams/model";
import { z } from "zod";
import { data, defineTool, READ, SWITCH } from "./define.ts";
import { WorkspaceId } from "./fields.ts";
import { ModelInfo, ViewpointList, Workspace, WorkspaceList } from "./outputs.ts";
import { assertTokenReaches } from "./token-scope.ts";

export const workspaceTools = [
  defineTool({
    name: "get_model_info",
    title: "Active workspace and model summary",
    description:
      "The workspace your tools act on, the model's name and metadata, and how many elements, relationships, views and " +
      "property definitions it holds. A good first call.",
    input: z.strictObject({}),
    output: ModelInfo,
    annotations: READ,
    run: async ({ ctx }) => data(await getModelInfo({ ctx })),
  }),
  defineTool({
    name: "list_workspaces",
    title: "List workspaces",
    description: "The workspaces of your token's organization; `active` marks the one the tools act on.",
    input: z.strictObject({}),
    output: WorkspaceList,
    annotations: READ,
    run: async ({ ctx }) => data({ workspaces: await listWorkspaces({ ctx }) }),
  }),
  defineTool({
    name: "activate_workspace",
    title: "Switch workspace",
    description:
      "Makes another workspace of your token's organization the active one: the following tool calls act on it " +
      "(unless the token is restricted to a single workspace).",
    input: z.strictObject({ workspace_id: WorkspaceId }),
    output: Workspace,
    annotations: SWITCH,
    run: async (call, { workspace_id }) => {
      assertTokenReaches(call, workspace_id);
      return data(await activateWorkspace({ ctx: call.ctx, input: { id: workspace_id } }));
    },
  }),
  defineTool({
    name: "list_viewpoints",
    title: "List ArchiMate viewpoints",
    description:
      "The ArchiMate 3.1 viewpoint catalogue: each viewpoint's name and the element types it allows. Use a name as " +
      "create_view's viewpoint, or the create-viewpoint-view prompt for a guided view.",
    input: z.strictObject({}),
    output: ViewpointList,
    annotations: READ,
    run: async ({ ctx }) => data({ viewpoints: [...listViewpoints({ ctx })] }),
  }),
  defineTool({
    name: "save_model",
    title: "Save the model",
    description: "Kept for compatibility: every change is already saved when it is made, so this does nothing.",
    input: z.strictObject({}),
    annotations: SWITCH,
    run: async ({ ctx }) => data(await saveModel({ ctx })),
  }),
];
