import { api } from "../api/client.ts";
import type { Element, Relationship, ViewSummary } from "../api/types.ts";
import { editor } from "../canvas/editor-store.ts";
import { loadView } from "../canvas/operations.ts";
import { model } from "../modeler/model-store.ts";

/** After a restore or revert: the model's objects and the open view read again, the selection kept. */
export async function reloadAfterChange(): Promise<void> {
  const [elements, relationships, views] = await Promise.all([
    api.get<Element[]>("/api/elements"),
    api.get<Relationship[]>("/api/relationships"),
    api.get<ViewSummary[]>("/api/views"),
  ]);
  model.set((s) => ({
    ...s,
    elements: new Map(elements.map((e) => [e.id, e])),
    relationships: new Map(relationships.map((r) => [r.id, r])),
    views,
  }));
  const open = editor.get().view?.id;
  if (open && views.some((v) => v.id === open)) await loadView(open);
}
