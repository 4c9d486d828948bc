import {
  activateWorkspace,
  createWorkspace,
  createWorkspaceFromXml,
  getModelInfo,
  ImportResult,
  listViewpoints,
  listWorkspaces,
  saveModel,
} from "@ams/model";
import { z } from "zod";
import { CREATE, data, defineTool, READ, SWITCH } from "./define.ts";
import { MAX_XML } from "./exchange.ts";
import { WorkspaceId } from "./fields.ts";
import { ModelInfo, ViewpointList, Workspace, WorkspaceList } from "./outputs.ts";

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
      "Switches the USER's active workspace (also what they see in the browser) to another workspace of your " +
      "token's organization: the following tool calls act on it. A token restricted to a single workspace switches " +
      "only between it and its drafts, for itself, not the user. To work on another workspace without switching " +
      "the user's, pass workspace_id to the tools instead.",
    input: z.strictObject({ workspace_id: WorkspaceId }),
    output: Workspace,
    annotations: SWITCH,
    // A token pinned to one workspace reaches it and its drafts only (activateWorkspace answers the others "not
    // found", as the gateway does over REST); activating a draft keeps it on the token, not the user.
    run: async ({ ctx }, { workspace_id }) => data(await activateWorkspace({ ctx, input: { id: workspace_id } })),
  }),
  defineTool({
    name: "create_workspace",
    title: "Create a workspace",
    description:
      "Creates a workspace in your token's organization, empty or holding the model of an Open Exchange XML document " +
      "(xml). It does not switch the user's active workspace unless activate is true: pass its id as workspace_id " +
      "to the other tools to work in it.",
    input: z.strictObject({
      name: z.string().trim().min(1).max(200).describe("Workspace name"),
      description: z.string().max(10_000).nullable().optional().describe("What the workspace is for"),
      xml: z
        .string()
        .min(1)
        .max(MAX_XML)
        .optional()
        .describe("An Open Exchange XML document to import into the new workspace (whole model)"),
      activate: z
        .boolean()
        .default(false)
        .describe("Also make it the user's active workspace (default false: the user's choice stays)"),
    }),
    output: Workspace.extend({ import: ImportResult.optional().describe("What the xml brought in") }),
    annotations: CREATE,
    run: async ({ ctx }, { xml, ...input }) =>
      data(
        xml ? await createWorkspaceFromXml({ ctx, input: { ...input, xml } }) : await createWorkspace({ ctx, input }),
      ),
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
