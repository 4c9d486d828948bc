import { api } from "../api/client.ts";
import type {
  Element,
  EnabledPlugin,
  FolderItem,
  ModelInfo,
  PropertyDefinition,
  Relationship,
  ViewSummary,
} from "../api/types.ts";
import { createStore } from "../app/store.ts";

export type Selection =
  | { kind: "element"; id: string }
  | { kind: "relationship"; id: string }
  | { kind: "view"; id: string }
  | null;

export type ModelState = {
  workspaceId: string | null;
  info: ModelInfo | null;
  elements: Map<string, Element>;
  relationships: Map<string, Relationship>;
  views: ViewSummary[];
  definitions: PropertyDefinition[];
  plugins: EnabledPlugin[];
  /** The imported organization tree (empty when the model has none). */
  folders: FolderItem[];
  selection: Selection;
  openViewId: string | null;
  loading: boolean;
};

const empty = (): ModelState => ({
  workspaceId: null,
  info: null,
  elements: new Map(),
  relationships: new Map(),
  views: [],
  definitions: [],
  plugins: [],
  folders: [],
  selection: null,
  openViewId: null,
  loading: true,
});

/** The open workspace's model, as the modeler shows it; every write goes through the REST API first. */
export const model = createStore<ModelState>(empty());

export async function loadModel(workspaceId: string): Promise<void> {
  model.set({
    ...empty(),
    workspaceId,
    openViewId: model.get().workspaceId === workspaceId ? model.get().openViewId : null,
  });
  const [info, elements, relationships, views, definitions, plugins, folders] = await Promise.all([
    api.get<ModelInfo>("/api"),
    api.get<Element[]>("/api/elements"),
    api.get<Relationship[]>("/api/relationships"),
    api.get<ViewSummary[]>("/api/views"),
    api.get<PropertyDefinition[]>("/api/property-definitions"),
    api.get<EnabledPlugin[]>("/api/plugins").catch(() => [] as EnabledPlugin[]),
    api.get<FolderItem[]>("/api/folders"),
  ]);
  if (model.get().workspaceId !== workspaceId) return;
  model.set((s) => ({
    ...s,
    info,
    elements: new Map(elements.map((e) => [e.id, e])),
    relationships: new Map(relationships.map((r) => [r.id, r])),
    views,
    definitions,
    plugins,
    folders,
    loading: false,
  }));
}

export function select(selection: Selection): void {
  model.set((s) => ({ ...s, selection }));
}

export function openView(id: string | null): void {
  model.set((s) => ({ ...s, openViewId: id, selection: id ? { kind: "view", id } : s.selection }));
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("view", id);
  else url.searchParams.delete("view");
  history.replaceState(null, "", url);
}

export function putElement(e: Element): void {
  model.set((s) => ({ ...s, elements: new Map(s.elements).set(e.id, e) }));
}

export function putRelationship(r: Relationship): void {
  model.set((s) => ({ ...s, relationships: new Map(s.relationships).set(r.id, r) }));
}

/** Removes an element and, as the server does, every relationship attached to it (transitively). */
export function dropElement(id: string): void {
  model.set((s) => {
    const elements = new Map(s.elements);
    elements.delete(id);
    const relationships = new Map(s.relationships);
    const gone = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const r of relationships.values())
        if (gone.has(r.source) || gone.has(r.target)) {
          relationships.delete(r.id);
          gone.add(r.id);
          grew = true;
        }
    }
    const selection = s.selection && gone.has(s.selection.id) ? null : s.selection;
    return { ...s, elements, relationships, selection };
  });
}

export function dropRelationship(id: string): void {
  model.set((s) => {
    const relationships = new Map(s.relationships);
    relationships.delete(id);
    return { ...s, relationships, selection: s.selection?.id === id ? null : s.selection };
  });
}

export function putViews(views: ViewSummary[]): void {
  model.set((s) => ({ ...s, views }));
}

export async function reloadViews(): Promise<void> {
  putViews(await api.get<ViewSummary[]>("/api/views"));
}

export async function reloadDefinitions(): Promise<void> {
  const definitions = await api.get<PropertyDefinition[]>("/api/property-definitions");
  model.set((s) => ({ ...s, definitions }));
}
