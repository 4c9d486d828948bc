import { PRESENCE_LEASE_SECONDS, type Presence } from "./presence-schemas.ts";

/** Colours with at least 4.5:1 contrast to white both ways (white initials on them, outlines on a white canvas). */
const COLORS = ["#1a5e8f", "#b01e1e", "#276b27", "#6a3d9a", "#8a4500", "#a3154f", "#00695c", "#3949ab"];

export function colorOf(userId: string): string {
  let h = 0;
  for (const ch of userId) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return COLORS[h % COLORS.length] ?? "#1a5e8f";
}

type Kept = { presence: Presence; expiresMs: number };

/** Who has which workspace open, in this replica's memory (the others' entries arrive over NATS). */
export type PresenceStore = {
  /** Sets (or renews) a presence; true when what others see changed (not only its lease). */
  put(workspaceId: string, presence: Presence, expiresMs: number): boolean;
  list(workspaceId: string): Presence[];
  /** Drops the lapsed; answers the workspaces whose list changed. */
  sweep(nowMs: number): string[];
};

const keyOf = (p: Presence) => `${p.user.id}/${p.client_id}`;
const sameView = (a: Presence, b: Presence) =>
  a.view_id === b.view_id && a.user.name === b.user.name && a.selection.join("\n") === b.selection.join("\n");

export function createPresenceStore(): PresenceStore {
  const workspaces = new Map<string, Map<string, Kept>>();
  return {
    put(workspaceId, presence, expiresMs) {
      const present = workspaces.get(workspaceId) ?? new Map<string, Kept>();
      workspaces.set(workspaceId, present);
      const before = present.get(keyOf(presence));
      present.set(keyOf(presence), { presence, expiresMs });
      return !before || !sameView(before.presence, presence);
    },
    list(workspaceId) {
      return [...(workspaces.get(workspaceId)?.values() ?? [])].map((k) => k.presence);
    },
    sweep(nowMs) {
      const changed: string[] = [];
      for (const [workspaceId, present] of workspaces) {
        const before = present.size;
        for (const [key, kept] of present) if (kept.expiresMs <= nowMs) present.delete(key);
        if (present.size !== before) changed.push(workspaceId);
        if (present.size === 0) workspaces.delete(workspaceId);
      }
      return changed;
    },
  };
}

/** A presence as the caller states it, with its lease from now. */
export function presenceOf(
  user: { id: string; name: string },
  input: { view_id?: string | null; selection?: string[]; client_id?: string },
  nowMs: number,
): { presence: Presence; expiresMs: number } {
  const expiresMs = nowMs + PRESENCE_LEASE_SECONDS * 1000;
  return {
    presence: {
      user,
      client_id: input.client_id ?? "default",
      view_id: input.view_id ?? null,
      selection: [...new Set(input.selection ?? [])],
      color: colorOf(user.id),
      expires_at: new Date(expiresMs).toISOString(),
    },
    expiresMs,
  };
}
