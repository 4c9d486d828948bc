import { randomUUID } from "node:crypto";
import type { Logger } from "@ams/shared";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import type { Presence } from "./presence-schemas.ts";

/** A presence set on one replica, told to the others: the NATS message's body. */
export type SharedPresence = { replica: string; workspace_id: string; presence: Presence; expires_ms: number };

/** How presences travel between control replicas. */
export type PresenceShare = {
  publish(workspaceId: string, presence: Presence, expiresMs: number): void;
  /** Called with every presence another replica set. */
  onRemote(listener: (shared: SharedPresence) => void): void;
  /** "up", "down" (NATS unreachable: presences stay per replica), or "not configured" (one replica). */
  state(): "up" | "down" | "not configured";
  close(): Promise<void>;
};

const SUBJECT = "ams.presence";

/** Within one process (the standalone shape, or a single replica): nothing to share. */
export function localPresenceShare(): PresenceShare {
  return { publish() {}, onRemote() {}, state: () => "not configured", close: async () => {} };
}

/**
 * NATS core, one subject per workspace (`ams.presence.<workspace>`), fire and forget: a presence is renewed every
 * few seconds, so a lost message is corrected by the next. A replica that starts late learns the others' presences
 * at their next renewal. NATS down: writes and events are unaffected; presences are seen on their own replica only.
 */
export function natsPresenceShare(url: string, log: Logger): PresenceShare {
  const replica = randomUUID();
  const listeners: ((shared: SharedPresence) => void)[] = [];
  let nc: NatsConnection | undefined;
  let up = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const receive = async (conn: NatsConnection) => {
    for await (const msg of conn.subscribe(`${SUBJECT}.>`)) {
      try {
        const shared = msg.json<SharedPresence>();
        if (shared.replica !== replica) for (const listener of listeners) listener(shared);
      } catch (err) {
        log.warn("a presence message could not be read", { err });
      }
    }
  };
  const watch = async (conn: NatsConnection) => {
    for await (const status of conn.status()) {
      if (status.type === "disconnect") up = false;
      if (status.type === "reconnect") up = true;
    }
  };
  // In the background: control serves (and writes succeed) whether or not NATS is there yet.
  const start = async (): Promise<void> => {
    try {
      const conn = await connect({ servers: url, name: "ams-control-presence", maxReconnectAttempts: -1 });
      if (closed) return void (await conn.close());
      nc = conn;
      up = true;
      void receive(conn);
      void watch(conn);
    } catch (err) {
      log.warn("NATS is not reachable for presence: retrying in 5 s", { err });
      timer = setTimeout(() => void start(), 5_000);
      timer.unref();
    }
  };
  void start();
  return {
    publish(workspaceId, presence, expiresMs) {
      if (!nc || !up) return;
      const body: SharedPresence = { replica, workspace_id: workspaceId, presence, expires_ms: expiresMs };
      try {
        nc.publish(`${SUBJECT}.${workspaceId}`, JSON.stringify(body));
      } catch (err) {
        log.warn("a presence could not be shared", { err });
      }
    },
    onRemote(listener) {
      listeners.push(listener);
    },
    state: () => (up && nc && !nc.isClosed() ? "up" : "down"),
    async close() {
      closed = true;
      clearTimeout(timer);
      await nc?.drain().catch(() => nc?.close());
    },
  };
}
