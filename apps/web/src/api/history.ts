/**
 * The history API's shapes (change log, object history, versions, diff) and its calls, as the tenant service's
 * History routes answer them (README, History).
 */
import { api } from "./client.ts";

export type ViaKind = "browser" | "api_token" | "mcp" | "import" | "system";
export type ChangeKind =
  | "element"
  | "relationship"
  | "view"
  | "node"
  | "connection"
  | "folder"
  | "property_definition"
  | "property_value"
  | "model";
export type ChangeOp = "create" | "update" | "delete";
export type FieldChange = { field: string; before: unknown; after: unknown };

export type ChangeGroupHeader = {
  revision: number;
  created_at: string;
  actor: { id: string | null; name: string | null };
  via: { kind: ViaKind; name: string | null };
  request_id: string | null;
  summary: string;
  /** Retention (HISTORY_RETENTION_DAYS) dropped its fields before and after; who, when and what remain. */
  detail_compacted: boolean;
};

export type WorkspaceChange = ChangeGroupHeader & {
  object_count: number;
  objects: { kind: ChangeKind; id: string; name: string | null; op: ChangeOp }[];
};
export type WorkspaceHistoryPage = { items: WorkspaceChange[]; next_before: number | null };

export type ViewPartChange = {
  kind: "node" | "connection";
  id: string;
  name: string | null;
  change: "added" | "removed" | "moved" | "resized" | "moved and resized" | "changed";
  fields: FieldChange[];
};
export type ObjectChange = ChangeGroupHeader & { op: ChangeOp; fields: FieldChange[]; parts?: ViewPartChange[] };
export type ObjectHistoryPage = { items: ObjectChange[]; next_before: number | null };

export type Version = {
  id: string;
  name: string;
  description: string | null;
  revision: number;
  automatic: boolean;
  created_at: string;
  created_by: { id: string | null; name: string | null };
};

type Named = { id: string; name: string | null; type: string | null };
export type KindDiff = { added: Named[]; removed: Named[]; changed: (Named & { fields: FieldChange[] })[] };
type Layout = { id: string; label: string | null };
export type ViewDiff = {
  view_id: string;
  name: string | null;
  nodes: {
    added: Layout[];
    removed: Layout[];
    moved: (Layout & { before: { x: number; y: number }; after: { x: number; y: number } })[];
    resized: (Layout & { before: { w: number; h: number }; after: { w: number; h: number } })[];
    changed: (Layout & { fields: FieldChange[] })[];
  };
  connections: { added: Layout[]; removed: Layout[]; changed: (Layout & { fields: FieldChange[] })[] };
};
type Point = { revision: number; version: { id: string; name: string } | null };
export type ModelDiff = {
  from: Point;
  to: Point;
  model: FieldChange[];
  elements: KindDiff;
  relationships: KindDiff;
  views: KindDiff;
  property_definitions: KindDiff;
  folders: KindDiff;
  view_layouts: ViewDiff[];
};
export type ChangeResult = { revision: number; summary: string; objects: number };

export type HistoryFilters = { actor?: string; via?: ViaKind | ""; kind?: ChangeKind | "" };
export type HistoryObjectKind = "element" | "relationship" | "view";

const ws = (id: string) => `/api/workspaces/${encodeURIComponent(id)}`;

export const historyApi = {
  workspace: (workspaceId: string, filters: HistoryFilters, before?: number) =>
    api.get<WorkspaceHistoryPage>(`${ws(workspaceId)}/history`, { ...filters, before, limit: 30 }),
  object: (kind: HistoryObjectKind, id: string, before?: number) =>
    api.get<ObjectHistoryPage>(`/api/${kind}s/${encodeURIComponent(id)}/history`, { before, limit: 30 }),
  restoreObject: (kind: HistoryObjectKind, id: string, revision: number) =>
    api.post<ChangeResult>(`/api/${kind}s/${encodeURIComponent(id)}/restore`, { revision }),
  revert: (workspaceId: string, revision: number) =>
    api.post<ChangeResult>(`${ws(workspaceId)}/history/${revision}/revert`),
  versions: (workspaceId: string) => api.get<Version[]>(`${ws(workspaceId)}/versions`),
  createVersion: (workspaceId: string, name: string, description: string | null) =>
    api.post<Version>(`${ws(workspaceId)}/versions`, { name, description }),
  deleteVersion: (workspaceId: string, versionId: string) =>
    api.del(`${ws(workspaceId)}/versions/${encodeURIComponent(versionId)}`),
  diff: (workspaceId: string, from: string, to: string) => api.get<ModelDiff>(`${ws(workspaceId)}/diff`, { from, to }),
  restoreVersion: (workspaceId: string, versionId: string) =>
    api.post<ChangeResult>(`${ws(workspaceId)}/restore`, { version: versionId }),
};
