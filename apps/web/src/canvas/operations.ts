import { api, describeError, isOwnRevision, staleObject } from "../api/client.ts";
import type { Element, Relationship, ViewDetail } from "../api/types.ts";
import { whoChanged } from "../live/live-store.ts";
import { dropElement, dropRelationship, model, putElement, putRelationship } from "../modeler/model-store.ts";
import { notify } from "../ui/notices.tsx";
import { editor, setSelected, setView } from "./editor-store.ts";
import { clearHistory, record, StepBlocked } from "./history.ts";
import { newId } from "./ids.ts";
import {
  connectionsTouching,
  descendantsOf,
  type FlatConnection,
  type FlatNode,
  flattenView,
  reorder,
} from "./view-model.ts";

/**
 * Canvas edits: each one changes the screen at once, is sent to the server, and is recorded for undo. When the
 * server refuses (a rule, or someone else deleted what it touches), the view is reloaded from the server so the
 * screen never shows what was not saved, and the reason is shown in plain words.
 */

const path = (viewId: string, rest = "") => `/api/views/${encodeURIComponent(viewId)}${rest}`;

export async function loadView(viewId: string): Promise<void> {
  const detail = await api.get<ViewDetail>(path(viewId));
  editor.set((s) => {
    const view = flattenView(detail);
    const selected = new Set([...s.selected].filter((id) => view.nodes.has(id) || view.connections.has(id)));
    return { ...s, view, selected };
  });
}

/**
 * Edits reach the server one after another, in the order they were made: two quick nudges sent in parallel could
 * otherwise arrive swapped and leave the earlier position stored.
 */
let pending: Promise<unknown> = Promise.resolve();
function inOrder<T>(work: () => Promise<T>): Promise<T> {
  const next = pending.then(work, work);
  pending = next.catch(() => undefined);
  return next;
}

async function guarded(viewId: string, work: () => Promise<void>): Promise<boolean> {
  try {
    await inOrder(work);
    return true;
  } catch (err) {
    notify(`${describeError(err)} The view was reloaded from the server.`, "error");
    await loadView(viewId).catch(() => undefined);
    return false;
  }
}

/**
 * The revisions the canvas last saw of its nodes and connections, kept from every answer, so that each write sends
 * If-Match. A node created here is 0 until its answer arrives, and then written without If-Match.
 */
function remember(kind: "node" | "connection", id: string, revision: number): void {
  setView((v) => {
    if (kind === "node") {
      const n = v.nodes.get(id);
      return n ? { ...v, nodes: new Map(v.nodes).set(id, { ...n, revision }) } : v;
    }
    const c = v.connections.get(id);
    return c ? { ...v, connections: new Map(v.connections).set(id, { ...c, revision }) } : v;
  });
}

const seenRevision = (kind: "node" | "connection", id: string): number | undefined => {
  const v = editor.get().view;
  const revision = kind === "node" ? v?.nodes.get(id)?.revision : v?.connections.get(id)?.revision;
  return revision || undefined;
};

type Kind = "node" | "connection" | "element" | "relationship";

/**
 * Undo undoes only the user's own changes. Each recorded edit keeps, per object it wrote, the revision its own last
 * write produced (`marks`). An undo or redo first reads those objects again: one changed since by someone else (a
 * revision this tab did not write) refuses the step before anything is written, and says who changed what; its writes
 * then go with If-Match of the marked revisions (a change that slips in between is refused the same way).
 */
type Marks = Map<string, { kind: Kind; revision: number }>;
/** How a write goes: the first doing is last-writer for geometry (below); an undo or redo is strict. */
type Writer = { marks: Marks; strict: null | { label: string; undoing: boolean } };

const objectUrl = (viewId: string, kind: Kind, id: string) =>
  kind === "node" || kind === "connection"
    ? path(viewId, `/${kind}s/${encodeURIComponent(id)}`)
    : `/api/${kind === "element" ? "elements" : "relationships"}/${encodeURIComponent(id)}`;

function nameOf(kind: Kind, id: string): string {
  const m = model.get();
  const view = editor.get().view;
  const quoted = (name: string | null | undefined, fallback: string) => (name ? `'${name}'` : fallback);
  if (kind === "element") return quoted(m.elements.get(id)?.name, "this element");
  if (kind === "relationship") return quoted(m.relationships.get(id)?.name, "this relationship");
  if (kind === "connection") return "this connection";
  const node = view?.nodes.get(id);
  const element = node?.element_id ? m.elements.get(node.element_id) : undefined;
  return quoted(element?.name ?? node?.label, "this node");
}

async function blocked(w: Writer, kind: Kind, id: string, revision: number): Promise<StepBlocked> {
  const who = (await whoChanged(id, revision)) ?? "Someone else";
  const step = w.strict?.undoing === false ? "redone" : "undone";
  return new StepBlocked(
    `${who} changed ${nameOf(kind, id)} after you; your change (${w.strict?.label ?? ""}) cannot be ${step} here.`,
  );
}

/** Before an undo or redo writes anything: every object it would write is still as this tab left it. */
async function checkMarks(viewId: string, w: Writer): Promise<void> {
  const marks = [...w.marks];
  if (marks.some(([, m]) => m.kind === "node" || m.kind === "connection")) await loadView(viewId);
  const view = editor.get().view;
  for (const [id, m] of marks) {
    const now =
      m.kind === "node"
        ? view?.nodes.get(id)?.revision
        : m.kind === "connection"
          ? view?.connections.get(id)?.revision
          : await api.get<{ revision: number }>(objectUrl(viewId, m.kind, id)).then(
              (o) => o.revision,
              () => undefined,
            );
    if (now !== undefined && now !== m.revision && !isOwnRevision(now)) throw await blocked(w, m.kind, id, now);
  }
}

/** A strict write's revision: what this tab's write left; a first doing sends what the screen last saw. */
const sendRevision = (w: Writer, kind: Kind, id: string) =>
  w.strict ? w.marks.get(id)?.revision : kind === "node" || kind === "connection" ? seenRevision(kind, id) : undefined;

/**
 * Geometry and removals on the canvas are last-writer by design: a node the user dropped ends where they dropped
 * it, even when someone else moved it meanwhile (they then see it move). The write goes with the revision the canvas
 * saw; a 412 means someone else changed the node since, and the same write is sent again with the revision the
 * server answered, deliberately. Field edits (names, documentation, labels) are merged in the properties panel
 * instead, never sent again blindly.
 */
async function putLatest(
  w: Writer,
  kind: "node" | "connection",
  url: string,
  id: string,
  body: unknown,
): Promise<void> {
  let saved: { revision: number };
  try {
    saved = await api.put<{ revision: number }>(url, body, sendRevision(w, kind, id));
  } catch (err) {
    const current = staleObject<{ revision: number }>(err);
    if (!current) throw err;
    if (w.strict && !isOwnRevision(current.revision)) throw await blocked(w, kind, id, current.revision);
    saved = await api.put<{ revision: number }>(url, body, current.revision);
  }
  remember(kind, id, saved.revision);
  w.marks.set(id, { kind, revision: saved.revision });
}

async function deleteLatest(w: Writer, kind: Kind, url: string, id: string): Promise<void> {
  try {
    await api.del(url, sendRevision(w, kind, id));
  } catch (err) {
    const current = staleObject<{ revision: number }>(err);
    if (!current) throw err;
    if (w.strict && !isOwnRevision(current.revision)) throw await blocked(w, kind, id, current.revision);
    await api.del(url, current.revision);
  }
  w.marks.delete(id);
}

async function postNode(w: Writer, viewId: string, n: FlatNode): Promise<void> {
  const saved = await api.post<{ revision: number }>(path(viewId, "/nodes"), nodeBody(n));
  remember("node", n.id, saved.revision);
  w.marks.set(n.id, { kind: "node", revision: saved.revision });
}

async function postConnection(w: Writer, viewId: string, c: FlatConnection): Promise<void> {
  const saved = await api.post<{ revision: number }>(path(viewId, "/connections"), connectionBody(c));
  remember("connection", c.id, saved.revision);
  w.marks.set(c.id, { kind: "connection", revision: saved.revision });
}

/** The writer of a recorded edit (its first doing) and, for its undo and redo, the strict one over the same marks. */
function writers(label: string) {
  const marks: Marks = new Map();
  return {
    first: { marks, strict: null } as Writer,
    undoing: { marks, strict: { label, undoing: true } } as Writer,
    redoing: { marks, strict: { label, undoing: false } } as Writer,
  };
}

export type Geometry = { x: number; y: number; w: number; h: number; parentId: string | null };
export type GeometryChange = { id: string; before: Geometry; after: Geometry };
export type BendChange = { id: string; before: { x: number; y: number }[]; after: { x: number; y: number }[] };

function applyGeometry(changes: GeometryChange[], bends: BendChange[], side: "before" | "after"): void {
  setView((v) => {
    const nodes = new Map(v.nodes);
    let parentsChanged = false;
    for (const c of changes) {
      const n = nodes.get(c.id);
      if (!n) continue;
      const g = c[side];
      if (n.parentId !== g.parentId) parentsChanged = true;
      nodes.set(c.id, { ...n, x: g.x, y: g.y, w: g.w, h: g.h, parentId: g.parentId });
    }
    const connections = new Map(v.connections);
    for (const b of bends) {
      const c = connections.get(b.id);
      if (c) connections.set(b.id, { ...c, bendpoints: b[side] });
    }
    const next = { ...v, nodes, connections };
    return parentsChanged ? { ...next, order: reorder(next) } : next;
  });
}

async function sendGeometry(
  w: Writer,
  viewId: string,
  changes: GeometryChange[],
  bends: BendChange[],
  side: "before" | "after",
) {
  // Parents first, so a node nested into a container finds it in place.
  await Promise.all(
    changes.map((c) => {
      const g = c[side];
      const other = c[side === "after" ? "before" : "after"];
      const body: Record<string, unknown> = {
        x: Math.round(g.x),
        y: Math.round(g.y),
        w: Math.round(g.w),
        h: Math.round(g.h),
      };
      if (g.parentId !== other.parentId) body.parent_id = g.parentId;
      return putLatest(w, "node", path(viewId, `/nodes/${encodeURIComponent(c.id)}`), c.id, body);
    }),
  );
  await Promise.all(
    bends.map((b) =>
      putLatest(w, "connection", path(viewId, `/connections/${encodeURIComponent(b.id)}`), b.id, {
        bendpoints: b[side].map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) })),
      }),
    ),
  );
}

/** Moves, resizes and re-parents nodes (and shifts bendpoints that travel with them). */
export async function changeGeometry(label: string, changes: GeometryChange[], bends: BendChange[] = []) {
  const viewId = editor.get().view?.id;
  if (!viewId || (changes.length === 0 && bends.length === 0)) return;
  const w = writers(label);
  applyGeometry(changes, bends, "after");
  const ok = await guarded(viewId, () => sendGeometry(w.first, viewId, changes, bends, "after"));
  if (!ok) return;
  const again = (writer: Writer, side: "before" | "after") => async () => {
    await inOrder(async () => {
      await checkMarks(viewId, writer);
      applyGeometry(changes, bends, side);
      await sendGeometry(writer, viewId, changes, bends, side);
    }).catch(async (err) => {
      await loadView(viewId);
      throw err;
    });
  };
  record({ label, undo: again(w.undoing, "before"), redo: again(w.redoing, "after") });
}

function nodeBody(n: FlatNode) {
  return {
    id: n.id,
    kind: n.kind as "element" | "label" | "container",
    ...(n.element_id ? { element_id: n.element_id } : {}),
    ...(n.kind !== "element" ? { label: n.label ?? "" } : {}),
    parent_id: n.parentId,
    x: Math.round(n.x),
    y: Math.round(n.y),
    w: Math.round(n.w),
    h: Math.round(n.h),
    ...(n.style ? { style: n.style } : {}),
  };
}

function connectionBody(c: FlatConnection) {
  return {
    id: c.id,
    source: c.source,
    target: c.target,
    ...(c.relationship_id ? { relationship_id: c.relationship_id } : {}),
    bendpoints: c.bendpoints,
    ...("label" in c && c.label ? { label: c.label as string } : {}),
    ...("style" in c && c.style ? { style: c.style } : {}),
  };
}

function insertLocal(nodes: FlatNode[], connections: FlatConnection[]) {
  setView((v) => {
    const map = new Map(v.nodes);
    for (const n of nodes) map.set(n.id, n);
    const conns = new Map(v.connections);
    for (const c of connections) conns.set(c.id, c);
    const next = { ...v, nodes: map, connections: conns, order: [...v.order, ...nodes.map((n) => n.id)] };
    return { ...next, order: reorder(next) };
  });
}

function removeLocal(nodeIds: Set<string>, connectionIds: Set<string>) {
  setView((v) => {
    const nodes = new Map(v.nodes);
    for (const id of nodeIds) nodes.delete(id);
    const connections = new Map(v.connections);
    for (const id of connectionIds) connections.delete(id);
    return { ...v, nodes, connections, order: v.order.filter((id) => nodes.has(id)) };
  });
  editor.set((s) => ({
    ...s,
    selected: new Set([...s.selected].filter((id) => !nodeIds.has(id) && !connectionIds.has(id))),
  }));
}

/** Nodes and connections drawn here whose creation the server has not answered yet, by id. */
const creating = new Map<string, Promise<void>>();

/**
 * The revision a node or connection has once the server holds it: at once when it is saved, after its creation was
 * answered when it was just drawn (a note typed into right after it was placed), undefined when that creation failed.
 */
export async function untilCreated(kind: "node" | "connection", id: string): Promise<number | undefined> {
  await creating.get(id)?.catch(() => undefined);
  return seenRevision(kind, id);
}

async function createAll(w: Writer, viewId: string, nodes: FlatNode[], connections: FlatConnection[]) {
  const done = (async () => {
    // One at a time in drawing order: a child's parent must exist before it, a connection's ends before it.
    for (const n of nodes) await postNode(w, viewId, n);
    for (const c of connections) await postConnection(w, viewId, c);
  })();
  const ids = [...nodes, ...connections].map((o) => o.id);
  for (const id of ids) creating.set(id, done);
  try {
    await done;
  } finally {
    for (const id of ids) if (creating.get(id) === done) creating.delete(id);
  }
}

async function deleteAll(w: Writer, viewId: string, nodes: FlatNode[], connections: FlatConnection[]) {
  if (w.strict) await checkMarks(viewId, w);
  const nodeIds = new Set(nodes.map((n) => n.id));
  // Deleting a node takes its nested nodes and attached connections with it on the server.
  const topNodes = nodes.filter((n) => !n.parentId || !nodeIds.has(n.parentId));
  const view = editor.get().view;
  const attached = new Set(view ? connectionsTouching(view, nodeIds).map((c) => c.id) : []);
  for (const c of connections)
    if (!attached.has(c.id))
      await deleteLatest(w, "connection", objectUrl(viewId, "connection", c.id), c.id).catch(ignoreGone);
  await Promise.all(
    topNodes.map((n) => deleteLatest(w, "node", objectUrl(viewId, "node", n.id), n.id).catch(ignoreGone)),
  );
}

/** Already gone is what deleting wanted. */
function ignoreGone(err: unknown) {
  if ((err as { status?: number }).status !== 404) throw err;
}

/** Adds nodes (and connections) to the view, e.g. an element dropped from the tree or a palette item. */
export async function addToView(label: string, nodes: FlatNode[], connections: FlatConnection[] = []) {
  const viewId = editor.get().view?.id;
  if (!viewId) return;
  const w = writers(label);
  insertLocal(nodes, connections);
  setSelected(nodes.map((n) => n.id));
  const ok = await guarded(viewId, () => createAll(w.first, viewId, nodes, connections));
  if (!ok) return;
  record({
    label,
    undo: async () => {
      await deleteAll(w.undoing, viewId, nodes, connections);
      removeLocal(new Set(nodes.map((n) => n.id)), new Set(connections.map((c) => c.id)));
    },
    redo: async () => {
      insertLocal(nodes, connections);
      await createAll(w.redoing, viewId, nodes, connections);
    },
  });
}

/** Deletes from the view only (the model keeps the elements and relationships); undoable. */
export async function deleteFromView(ids: Iterable<string>) {
  const view = editor.get().view;
  if (!view) return;
  const wanted = new Set(ids);
  const nodeIds = new Set([...wanted].filter((id) => view.nodes.has(id)));
  for (const d of descendantsOf(view, nodeIds)) nodeIds.add(d);
  const conns = new Map<string, FlatConnection>();
  for (const c of connectionsTouching(view, nodeIds)) conns.set(c.id, c);
  for (const id of wanted) {
    const c = view.connections.get(id);
    if (c) conns.set(id, c);
  }
  for (const c of connectionsTouching(view, new Set(conns.keys()))) conns.set(c.id, c);
  const nodes = view.order.filter((id) => nodeIds.has(id)).flatMap((id) => view.nodes.get(id) ?? []);
  const connections = [...view.connections.values()].filter((c) => conns.has(c.id));
  if (nodes.length === 0 && connections.length === 0) return;
  const w = writers("Delete from view");
  const ok = await guarded(view.id, () => deleteAll(w.first, view.id, nodes, connections));
  removeLocal(nodeIds, new Set(conns.keys()));
  if (!ok) return;
  record({
    label: "Delete from view",
    undo: async () => {
      insertLocal(nodes, connections);
      await createAll(w.undoing, view.id, nodes, connections);
    },
    redo: async () => {
      await deleteAll(w.redoing, view.id, nodes, connections);
      removeLocal(nodeIds, new Set(conns.keys()));
    },
  });
}

/**
 * Draws a connection between two nodes: for an existing relationship, or for a new one created in the model at
 * the same time (undo removes both again).
 */
export async function connect(
  source: FlatNode,
  target: FlatNode,
  relationship: { existing: Relationship } | { create: { type: string; source: string; target: string } },
) {
  const view = editor.get().view;
  if (!view) return;
  const rel: Relationship | null = "existing" in relationship ? relationship.existing : null;
  const relId = rel?.id ?? newId();
  const conn: FlatConnection = {
    id: newId(),
    kind: "relationship",
    relationship_id: relId,
    source: source.id,
    target: target.id,
    bendpoints: [],
    revision: 0, // not saved yet: the server's answer carries the real one
  };
  const w = writers("Connect");
  const createRel = async () => {
    if (!("create" in relationship)) return;
    const saved = await api.post<Relationship>("/api/relationships", { id: relId, ...relationship.create });
    putRelationship(saved);
    w.first.marks.set(relId, { kind: "relationship", revision: saved.revision });
  };
  const ok = await guarded(view.id, async () => {
    await createRel();
    insertLocal([], [conn]);
    await postConnection(w.first, view.id, conn);
  });
  if (!ok) return;
  setSelected([conn.id]);
  record({
    label: "Connect",
    undo: async () => {
      await checkMarks(view.id, w.undoing);
      await deleteLatest(w.undoing, "connection", objectUrl(view.id, "connection", conn.id), conn.id).catch(ignoreGone);
      removeLocal(new Set(), new Set([conn.id]));
      if ("create" in relationship) {
        await deleteLatest(w.undoing, "relationship", objectUrl(view.id, "relationship", relId), relId).catch(
          ignoreGone,
        );
        dropRelationship(relId);
      }
    },
    redo: async () => {
      await createRel();
      insertLocal([], [conn]);
      await postConnection(w.redoing, view.id, conn);
    },
  });
}

/** A palette click: a new element in the model and its node in the view, undone together. */
export async function createElementOnView(type: string, name: string, node: Omit<FlatNode, "element_id" | "kind">) {
  const view = editor.get().view;
  if (!view) return;
  const elementId = newId();
  const flat: FlatNode = { ...node, kind: "element", element_id: elementId };
  const w = writers(`New ${name}`);
  const createElement = async () => {
    const saved = await api.post<Element>("/api/elements", { id: elementId, type, name });
    putElement(saved);
    w.first.marks.set(elementId, { kind: "element", revision: saved.revision });
  };
  const ok = await guarded(view.id, async () => {
    await createElement();
    insertLocal([flat], []);
    setSelected([flat.id]);
    await postNode(w.first, view.id, flat);
  });
  if (!ok) return;
  record({
    label: `New ${name}`,
    undo: async () => {
      // Deleting the element takes its node with it; someone else's later change to either refuses the undo.
      await checkMarks(view.id, w.undoing);
      await deleteLatest(w.undoing, "element", objectUrl(view.id, "element", elementId), elementId).catch(ignoreGone);
      w.undoing.marks.delete(flat.id);
      dropElement(elementId);
      removeLocal(new Set([flat.id]), new Set());
    },
    redo: async () => {
      await createElement();
      insertLocal([flat], []);
      await postNode(w.redoing, view.id, flat);
    },
  });
}

/**
 * Deletes the elements and relationships behind the selection from the model: every view loses them. Not undoable
 * (the caller asks first); the canvas history is cleared because its steps may refer to what is gone.
 */
export async function deleteFromModel(ids: Iterable<string>) {
  const view = editor.get().view;
  if (!view) return;
  const elementIds = new Set<string>();
  const relationshipIds = new Set<string>();
  for (const id of ids) {
    const n = view.nodes.get(id);
    if (n?.element_id) elementIds.add(n.element_id);
    const c = view.connections.get(id);
    if (c?.relationship_id) relationshipIds.add(c.relationship_id);
  }
  await guarded(view.id, async () => {
    for (const id of relationshipIds) {
      await api
        .del(`/api/relationships/${encodeURIComponent(id)}`, model.get().relationships.get(id)?.revision)
        .catch(ignoreGone);
      dropRelationship(id);
    }
    for (const id of elementIds) {
      await api
        .del(`/api/elements/${encodeURIComponent(id)}`, model.get().elements.get(id)?.revision)
        .catch(ignoreGone);
      dropElement(id);
    }
  });
  clearHistory();
  await loadView(view.id);
}
