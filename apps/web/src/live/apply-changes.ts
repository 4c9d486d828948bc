import { api } from "../api/client.ts";
import type { Element, Relationship } from "../api/types.ts";
import { editor } from "../canvas/editor-store.ts";
import { loadView } from "../canvas/operations.ts";
import {
  dropElement,
  dropRelationship,
  model,
  putElement,
  putRelationship,
  reloadDefinitions,
  reloadViews,
} from "../modeler/model-store.ts";
import { notify } from "../ui/notices.tsx";
import { actorOf, type ChangeEvent, onChange, onResync } from "./live-store.ts";

/** Groups touching more objects than this are applied by reloading the model in place (one round of reads). */
const BULK = 40;

type Touched = ChangeEvent["objects"][number];

/**
 * Whether the screen already has this object's change (its own save, or the event seen twice): every object a group
 * wrote carries the group's revision, so an object the screen knows at that revision or later is skipped; applying a
 * group is idempotent and never undoes a newer local state.
 */
function known(o: Touched, revision: number): boolean {
  const m = model.get();
  const view = editor.get().view;
  const have =
    o.kind === "element"
      ? m.elements.get(o.id)
      : o.kind === "relationship"
        ? m.relationships.get(o.id)
        : o.kind === "node"
          ? view?.nodes.get(o.id)
          : o.kind === "connection"
            ? view?.connections.get(o.id)
            : undefined;
  if (o.op === "delete") return have === undefined;
  return have?.revision !== undefined && have.revision >= revision;
}

/** The element or relationship a property value belongs to (property values are logged as their own rows). */
function ownerOf(o: Touched): { kind: "element" | "relationship"; id: string } | null {
  const state = o.state ?? {};
  const kind = String(state.owner_kind ?? "");
  const id = o.owner_id ?? String(state.owner_id ?? "");
  if (!id) return null;
  if (kind === "element" || model.get().elements.has(id)) return { kind: "element", id };
  if (kind === "relationship" || model.get().relationships.has(id)) return { kind: "relationship", id };
  return null;
}

/**
 * An element the screen has, drawn at once with the name, type and documentation the event carries (its new row),
 * before the read that brings its properties and revision: the redraw does not wait for that round trip. The
 * revision stays the one the screen had until the read, so a save meanwhile still meets the change (412, merged).
 */
function showAtOnce(o: Touched): void {
  const have = model.get().elements.get(o.id);
  const state = o.state;
  if (!have || !state) return;
  const text = (key: string) => (typeof state[key] === "string" ? (state[key] as string) : undefined);
  const documentation = state.documentation === null ? null : (text("documentation") ?? have.documentation);
  putElement({ ...have, name: text("name") ?? have.name, type: text("type") ?? have.type, documentation });
}

/** Reads one object again and puts it into the model (its API shape carries properties and the revision). */
async function refetch(kind: "element" | "relationship", id: string): Promise<void> {
  const path = `/api/${kind === "element" ? "elements" : "relationships"}/${encodeURIComponent(id)}`;
  try {
    if (kind === "element") putElement(await api.get<Element>(path));
    else putRelationship(await api.get<Relationship>(path));
  } catch {
    // Deleted by a later group, whose event follows and drops it.
  }
}

/** Everything the model tree, properties panel and open view show, read again; selection, view and zoom are kept. */
export async function reloadInPlace(): Promise<void> {
  const [elements, relationships] = await Promise.all([
    api.get<Element[]>("/api/elements"),
    api.get<Relationship[]>("/api/relationships"),
  ]);
  model.set((s) => {
    const elementMap = new Map(elements.map((e) => [e.id, e]));
    const relationshipMap = new Map(relationships.map((r) => [r.id, r]));
    const kept = s.selection && (elementMap.has(s.selection.id) || relationshipMap.has(s.selection.id));
    return {
      ...s,
      elements: elementMap,
      relationships: relationshipMap,
      selection: s.selection?.kind === "view" || kept ? s.selection : null,
    };
  });
  await Promise.all([reloadViews(), reloadDefinitions()]);
  const open = editor.get().view?.id;
  if (open) await loadView(open).catch(() => undefined);
}

/** Applies one change group to the open model and view. Returns when the screen shows it. */
export async function applyChange(event: ChangeEvent): Promise<void> {
  if (event.truncated || event.objects.length > BULK) {
    await reloadInPlace();
    return;
  }
  const fresh = event.objects.filter((o) => !known(o, event.revision));
  if (fresh.length === 0) return;
  const reads: Promise<void>[] = [];
  const openView = editor.get().view?.id;
  let viewTouched = false;
  let viewsChanged = false;
  let definitionsChanged = false;
  for (const o of fresh) {
    switch (o.kind) {
      case "element":
        if (o.op === "delete") dropElement(o.id);
        else {
          showAtOnce(o);
          reads.push(refetch("element", o.id));
        }
        break;
      case "relationship":
        if (o.op === "delete") dropRelationship(o.id);
        else reads.push(refetch("relationship", o.id));
        break;
      case "property_value": {
        const owner = ownerOf(o);
        if (owner) reads.push(refetch(owner.kind, owner.id));
        break;
      }
      case "node":
      case "connection": {
        const viewId = String(o.state?.view_id ?? o.owner_id ?? "");
        const shown = editor.get().view;
        if (viewId === openView || shown?.nodes.has(o.id) || shown?.connections.has(o.id)) viewTouched = true;
        break;
      }
      case "view":
        viewsChanged = true;
        if (o.id === openView) viewTouched = true;
        break;
      case "property_definition":
        definitionsChanged = true;
        break;
    }
  }
  if (viewsChanged) reads.push(reloadViews());
  if (definitionsChanged) reads.push(reloadDefinitions());
  await Promise.all(reads);
  // A view deleted by someone else: the canvas closes it (the views list no longer has it).
  if (openView && viewsChanged && !model.get().views.some((v) => v.id === openView)) {
    model.set((s) => ({ ...s, openViewId: null }));
    return;
  }
  if (viewTouched && openView && editor.get().view?.id === openView) await loadView(openView).catch(() => undefined);
}

/**
 * The modeler lives: every change group of the open workspace (the others' and this tab's own, the latter skipped by
 * revision) reaches the model tree, the properties panel and the open view, one group after another in revision
 * order; a `resync` reloads the model in place. Someone else's change is named in a short notice. Returns the stop.
 */
export function applyLiveChanges(myUserId: string | null): () => void {
  let queue: Promise<void> = Promise.resolve();
  const stopChange = onChange((event) => {
    queue = queue.then(() => applyChange(event)).catch(() => undefined);
    if (event.actor.id !== myUserId || event.via.kind !== "browser")
      queue = queue.then(() => notify(`${actorOf(event)}: ${event.summary}`));
  });
  const stopResync = onResync(() => {
    queue = queue.then(reloadInPlace).catch(() => undefined);
  });
  return () => {
    stopChange();
    stopResync();
  };
}
