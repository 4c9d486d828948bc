import type { z } from "zod";
import { Workspace } from "../workspaces/schemas.ts";
import { ImportResult } from "./import-model.ts";

/** A workspace created from a file: the workspace and its import result. */
export const WorkspaceFromFile = Workspace.extend({ import: ImportResult });
export type WorkspaceFromFile = z.infer<typeof WorkspaceFromFile>;
