import { api } from "../api/client.ts";
import { createStore } from "../app/store.ts";
import { editor } from "../canvas/editor-store.ts";
import { model } from "../modeler/model-store.ts";

/** Someone with the workspace open, as GET/POST /api/workspaces/:id/presence and the `presence` event give them. */
export type Presence = {
  user: { id: string; name: string };
  client_id: string;
  view_id: string | null;
  selection: string[];
  color: string;
  expires_at: string;
};

/** One committed change group as the `change` event carries it (README, Live collaboration). */
export type ChangeEvent = {
  revision: number;
  created_at: string;
  actor: { id: string | null; name: string | null };
  via: { kind: string; name: string | null };
  request_id: string | null;
  summary: string;
  objects: { kind: string; id: string; owner_id: string | null; op: string; state: Record<string, unknown> | null }[];
  truncated: boolean;
};

export type LiveState = {
  workspaceId: string | null;
  /** Everyone present but this tab. */
  others: Presence[];
  /** The last revision the stream delivered (or `ready` named). */
  revision: number | null;
  connected: boolean;
};

export const live = createStore<LiveState>({ workspaceId: null, others: [], revision: null, connected: false });

type Listener = (event: ChangeEvent) => void;
const changeListeners = new Set<Listener>();
const resyncListeners = new Set<() => void>();

/** Each committed change group of the open workspace, in order (the modeler's live application subscribes here). */
export function onChange(listener: Listener): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** The stream said the client must reload the workspace (a gap it cannot fill). */
export function onResync(listener: () => void): () => void {
  resyncListeners.add(listener);
  return () => resyncListeners.delete(listener);
}

/** Who made a change, for notices: "Ana Lima", "Assistant Claude for Ana Lima", "Ana Lima (API)". */
export function actorOf(event: Pick<ChangeEvent, "actor" | "via">): string {
  const name = event.actor.name ?? "Someone";
  if (event.via.kind === "mcp") return `Assistant ${event.via.name ?? ""} for ${name}`.replace("  ", " ");
  if (event.via.kind === "api_token") return `${name} (API)`;
  return name;
}

/** The last change the stream delivered of each object (id): its revision and who made it. */
const lastChanges = new Map<string, { revision: number; actor: string }>();

/**
 * Who changed the object at `revision` (or later), as the stream told: waits up to `waitMs` for an event that has
 * not arrived yet (a 412 can come before the event of the change that caused it). Null when no event says.
 */
export async function whoChanged(id: string, revision: number, waitMs = 1500): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const last = lastChanges.get(id);
    if (last && last.revision >= revision) return last.actor;
    if (Date.now() >= deadline) return last?.actor ?? null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** This tab, among the caller's others (a person may have the workspace open twice). */
const CLIENT_ID = `tab-${Math.random().toString(36).slice(2, 12)}`;
const RENEW_MS = 10_000;

/** What this tab shows as selected: the model's selection and the canvas's nodes and connections. */
function selectionNow(): { view_id: string | null; selection: string[] } {
  const m = model.get();
  const ids = new Set<string>(editor.get().selected);
  if (m.selection && m.selection.kind !== "view") ids.add(m.selection.id);
  const view = editor.get().view;
  for (const id of editor.get().selected) {
    const el = view?.nodes.get(id)?.element_id;
    if (el) ids.add(el);
  }
  return { view_id: m.openViewId, selection: [...ids].slice(0, 100) };
}

/**
 * Follows the workspace: its events stream (EventSource: reconnects and resumes by itself) and this tab's presence,
 * renewed every 10 s and sent again whenever the open view or the selection changes. Returns the stop function.
 */
export function startLive(workspaceId: string, since?: number): () => void {
  live.set({ workspaceId, others: [], revision: since ?? null, connected: false });
  const url = `/api/workspaces/${encodeURIComponent(workspaceId)}/events${since === undefined ? "" : `?since=${since}`}`;
  const source = new EventSource(url);
  const mine = (p: Presence) => p.client_id === CLIENT_ID;
  const setPresent = (present: Presence[]) => live.set((s) => ({ ...s, others: present.filter((p) => !mine(p)) }));
  source.addEventListener("open", () => live.set((s) => ({ ...s, connected: true })));
  source.addEventListener("error", () => live.set((s) => ({ ...s, connected: false })));
  source.addEventListener("ready", (e) => {
    const { revision } = JSON.parse((e as MessageEvent).data) as { revision: number };
    live.set((s) => ({ ...s, revision }));
  });
  source.addEventListener("presence", (e) => setPresent(JSON.parse((e as MessageEvent).data).present));
  source.addEventListener("change", (e) => {
    const event = JSON.parse((e as MessageEvent).data) as ChangeEvent;
    const change = { revision: event.revision, actor: actorOf(event) };
    // A property value changes its element or relationship too.
    for (const o of event.objects) lastChanges.set(o.kind === "property_value" ? (o.owner_id ?? o.id) : o.id, change);
    live.set((s) => ({ ...s, revision: event.revision }));
    for (const listener of changeListeners) listener(event);
  });
  source.addEventListener("resync", () => {
    for (const listener of resyncListeners) listener();
  });
  source.addEventListener("closed", (e) => {
    // Access lost: reconnecting would only be refused. A shutdown: EventSource reconnects to another replica.
    if (JSON.parse((e as MessageEvent).data).reason === "access") source.close();
  });

  let last = "";
  const send = (force: boolean) => {
    const body = selectionNow();
    const key = JSON.stringify(body);
    if (!force && key === last) return;
    last = key;
    api
      .post<{ present: Presence[] }>(`/api/workspaces/${encodeURIComponent(workspaceId)}/presence`, {
        ...body,
        client_id: CLIENT_ID,
      })
      .then((answer) => setPresent(answer.present))
      .catch(() => {
        last = "";
      });
  };
  send(true);
  const renew = setInterval(() => send(true), RENEW_MS);
  const stopModel = model.subscribe(() => send(false));
  const stopEditor = editor.subscribe(() => send(false));
  return () => {
    clearInterval(renew);
    stopModel();
    stopEditor();
    source.close();
    live.set({ workspaceId: null, others: [], revision: null, connected: false });
  };
}

/** Initials for an avatar: "Ana Lima" -> "AL", "archi" -> "AR". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}`.toUpperCase();
  return name.trim().slice(0, 2).toUpperCase();
}

/** The others present, once per person (two tabs of one person show one avatar). */
export function distinctPeople(others: Presence[]): Presence[] {
  const seen = new Map<string, Presence>();
  for (const p of others) if (!seen.has(p.user.id)) seen.set(p.user.id, p);
  return [...seen.values()];
}
