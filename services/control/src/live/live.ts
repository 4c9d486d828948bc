import type { Database } from "@ams/db";
import type { Logger } from "@ams/shared";
import { createEventHub, type EventHub } from "./hub.ts";
import { createPresenceStore, presenceOf } from "./presence.ts";
import { PRESENCE_LEASE_SECONDS, type PresenceInput, type PresenceList } from "./presence-schemas.ts";
import { localPresenceShare, natsPresenceShare, type PresenceShare } from "./presence-share.ts";
import { sseFrame } from "./sse.ts";

/** Live collaboration on this replica: the events streams and the presences of each workspace. */
export type Live = {
  events: EventHub;
  /** Sets the caller's presence (a renewal when nothing changed) and answers the workspace's presences. */
  setPresence(workspaceId: string, user: { id: string; name: string }, input: PresenceInput): PresenceList;
  presence(workspaceId: string): PresenceList;
  /** The presence frame of a workspace (sent on each change and to every stream as it opens). */
  presenceFrame(workspaceId: string): Uint8Array;
  /** NATS state of the presence sharing between replicas. */
  shareState(): PresenceShare["state"] extends () => infer S ? S : never;
  close(): Promise<void>;
};

const SWEEP_MS = 1_000;

export function createLive(opts: {
  database: Database;
  log: Logger;
  /** NATS (split shape, several replicas): presences are shared on it. Absent: this replica's only. */
  natsUrl?: string;
  recheckMs?: number;
  clock?: () => number;
}): Live {
  const now = opts.clock ?? Date.now;
  const events = createEventHub({ database: opts.database, log: opts.log, recheckMs: opts.recheckMs });
  const store = createPresenceStore();
  const share = opts.natsUrl ? natsPresenceShare(opts.natsUrl, opts.log) : localPresenceShare();
  const list = (workspaceId: string): PresenceList => ({
    present: store.list(workspaceId),
    lease_seconds: PRESENCE_LEASE_SECONDS,
  });
  const frame = (workspaceId: string) => sseFrame({ event: "presence", data: list(workspaceId) });
  const changed = (workspaceId: string) => events.broadcast(workspaceId, frame(workspaceId));
  share.onRemote((shared) => {
    if (shared.expires_ms <= now()) return;
    if (store.put(shared.workspace_id, shared.presence, shared.expires_ms)) changed(shared.workspace_id);
  });
  const sweeper = setInterval(() => {
    for (const workspaceId of store.sweep(now())) changed(workspaceId);
  }, SWEEP_MS);
  sweeper.unref();
  return {
    events,
    setPresence(workspaceId, user, input) {
      const { presence, expiresMs } = presenceOf(user, input, now());
      share.publish(workspaceId, presence, expiresMs);
      if (store.put(workspaceId, presence, expiresMs)) changed(workspaceId);
      return list(workspaceId);
    },
    presence: list,
    presenceFrame: frame,
    shareState: () => share.state(),
    async close() {
      clearInterval(sweeper);
      await events.close();
      await share.close();
    },
  };
}
