import type { Database } from "@ams/db";
import { type ChangeEvent, type ChangeFeed, createChangeFeed, latestRevision, readGroupsAfter } from "@ams/model";
import { AppError, type Logger } from "@ams/shared";
import { type ResumePoint, resumePoint } from "./resume.ts";
import { eventId, sseFrame } from "./sse.ts";
import { openSseStream, type SseStream } from "./stream.ts";

/** How often each stream's access is checked again (a lost one closes within this plus one check). */
export const RECHECK_MS = 2_000;
/** Encoded change frames kept per workspace for streams that are a little behind (no log read for them). */
const RECENT_MAX = 512;
/** Groups read from the log per statement. */
const BATCH = 100;

export type OpenStream = {
  workspaceId: string;
  /** The `Last-Event-ID` header (a reconnect), else `since` (the revision a page loaded). */
  lastEventId?: string;
  since?: number;
  /** Streams whose check is the same (same credentials, same workspace) share one check per round. */
  checkKey: string;
  /** Resolves while the caller may still read the workspace; an AppError (401/403/404) closes the stream. */
  check(): Promise<unknown>;
  /** Frames sent right after `ready` (the workspace's presence). */
  greeting?: Uint8Array[];
};

export type EventHub = {
  /** Opens a stream: resync when the resume point is not usable, `ready`, then every change group after it. */
  open(request: OpenStream): Promise<SseStream>;
  /** Sends a frame (presence) to every stream of the workspace on this replica. */
  broadcast(workspaceId: string, frame: Uint8Array): void;
  /** Open streams on this replica. */
  openStreams(): number;
  /** The change feed's mode (notify, or polling while its subscription is lost); null before the first stream. */
  feedMode(): "notify" | "polling" | null;
  /** At shutdown: every stream ends (clients reconnect elsewhere with Last-Event-ID); new ones are refused. */
  drain(): void;
  close(): Promise<void>;
};

type Subscriber = { stream: SseStream; sent: number; catching: boolean; request: OpenStream };
type Channel = {
  workspaceId: string;
  subscribers: Set<Subscriber>;
  /** The last revision read from the log into `recent` (-1 until the first stream has read the latest). */
  fetched: number;
  recent: Map<number, Uint8Array>;
  fetching: boolean;
  again: boolean;
};

const frameOf = (workspaceId: string, event: ChangeEvent) =>
  sseFrame({ id: eventId(workspaceId, event.revision), event: "change", data: event });

/**
 * The events side of control, one per process: streams subscribe per workspace; the change feed wakes a workspace's
 * channel, which reads the new groups from the log once, encodes each once and queues it on every stream of the
 * workspace. A stream behind the channel (resuming, or just opened) catches up from the channel's recent frames,
 * else from the log itself. Each stream's queue is bounded (stream.ts): a stream that cannot keep up is cut off with
 * a `resync`. Access is checked again every RECHECK_MS; a stream whose caller lost it ends with `closed`.
 */
export function createEventHub(opts: {
  database: Database;
  log: Logger;
  recheckMs?: number;
  /** The feed to follow; default: one on the database, started with the first stream. */
  feed?: () => Promise<ChangeFeed>;
}): EventHub {
  const { database, log } = opts;
  const channels = new Map<string, Channel>();
  let open = 0;
  let draining = false;
  let feed: Promise<ChangeFeed> | undefined;
  let feedReady: ChangeFeed | undefined;
  const checking = new Set<string>();

  const startFeed = () => {
    feed ??= (opts.feed ?? (() => createChangeFeed(database)))().then((f) => {
      feedReady = f;
      f.subscribe((workspaceId) => {
        const channel = channels.get(workspaceId);
        if (channel) void fetch(channel);
      });
      return f;
    });
    return feed;
  };

  const fetch = async (channel: Channel): Promise<void> => {
    if (channel.fetched < 0) return;
    if (channel.fetching) {
      channel.again = true;
      return;
    }
    channel.fetching = true;
    try {
      do {
        channel.again = false;
        for (;;) {
          const events = await readGroupsAfter(database, channel.workspaceId, channel.fetched, BATCH);
          for (const event of events) {
            channel.recent.set(event.revision, frameOf(channel.workspaceId, event));
            channel.recent.delete(event.revision - RECENT_MAX);
            channel.fetched = event.revision;
          }
          for (const sub of channel.subscribers) pump(channel, sub);
          if (events.length < BATCH) break;
        }
      } while (channel.again);
    } catch (err) {
      // The next wake-up (or the feed's poll) tries again; the log keeps what was not read.
      log.warn("reading the change log for live events failed", { err, workspaceId: channel.workspaceId });
    } finally {
      channel.fetching = false;
    }
  };

  /** Queues what the subscriber lacks from the channel's recent frames; from the log when they are not there. */
  const pump = (channel: Channel, sub: Subscriber) => {
    if (sub.catching) return;
    while (sub.stream.isOpen() && sub.sent < channel.fetched) {
      const frame = channel.recent.get(sub.sent + 1);
      if (!frame) {
        void catchUp(channel, sub);
        return;
      }
      if (!sub.stream.send(frame)) return cutOff(channel, sub);
      sub.sent++;
    }
  };

  const catchUp = async (channel: Channel, sub: Subscriber) => {
    sub.catching = true;
    try {
      while (sub.stream.isOpen() && sub.sent < channel.fetched && !channel.recent.has(sub.sent + 1)) {
        const events = await readGroupsAfter(database, channel.workspaceId, sub.sent, BATCH);
        if (events[0]?.revision !== sub.sent + 1) return resync(channel, sub, "unavailable");
        for (const event of events) {
          if (!sub.stream.send(frameOf(channel.workspaceId, event))) return cutOff(channel, sub);
          sub.sent = event.revision;
        }
      }
    } catch (err) {
      log.warn("catching a stream up from the change log failed", { err, workspaceId: channel.workspaceId });
      return resync(channel, sub, "unavailable");
    } finally {
      sub.catching = false;
    }
    pump(channel, sub);
  };

  const resync = (channel: Channel, sub: Subscriber, reason: string) =>
    sub.stream.close(
      sseFrame({
        id: eventId(channel.workspaceId, sub.sent),
        event: "resync",
        data: { reason, revision: sub.sent },
      }),
    );
  const cutOff = (channel: Channel, sub: Subscriber) => resync(channel, sub, "slow");

  const recheck = async () => {
    const groups = new Map<string, Subscriber[]>();
    for (const channel of channels.values())
      for (const sub of channel.subscribers) {
        const list = groups.get(sub.request.checkKey) ?? [];
        list.push(sub);
        groups.set(sub.request.checkKey, list);
      }
    await Promise.all(
      [...groups].map(async ([key, subs]) => {
        const first = subs[0];
        if (!first || checking.has(key)) return;
        checking.add(key);
        try {
          await first.request.check();
        } catch (err) {
          if (!(err instanceof AppError)) return;
          for (const sub of subs) sub.stream.close(sseFrame({ event: "closed", data: { reason: "access" } }));
        } finally {
          checking.delete(key);
        }
      }),
    );
  };
  const ticker = setInterval(() => void recheck(), opts.recheckMs ?? RECHECK_MS);
  ticker.unref();

  const channelOf = (workspaceId: string) => {
    let channel = channels.get(workspaceId);
    if (!channel) {
      channel = {
        workspaceId,
        subscribers: new Set(),
        fetched: -1,
        recent: new Map(),
        fetching: false,
        again: false,
      };
      channels.set(workspaceId, channel);
    }
    return channel;
  };

  const drain = () => {
    draining = true;
    const bye = sseFrame({ event: "closed", data: { reason: "shutdown" } });
    for (const channel of channels.values()) for (const sub of [...channel.subscribers]) sub.stream.close(bye);
  };

  return {
    async open(request) {
      if (draining) throw new AppError("UNAVAILABLE", "This replica is shutting down: reconnect");
      await startFeed();
      const { workspaceId } = request;
      const holder: { sub?: Subscriber; channel?: Channel } = {};
      const stream = openSseStream({
        onClose() {
          open--;
          const { sub, channel } = holder;
          if (!sub || !channel) return;
          channel.subscribers.delete(sub);
          if (channel.subscribers.size === 0 && channels.get(workspaceId) === channel) channels.delete(workspaceId);
        },
      });
      open++;
      try {
        const latest = (await latestRevision(database, workspaceId)) ?? 0;
        const start: ResumePoint = resumePoint(workspaceId, latest, request.lastEventId, request.since);
        const from = start.kind === "after" ? start.revision : latest;
        if (start.kind === "resync") {
          const data = { reason: start.reason, revision: latest };
          stream.send(sseFrame({ id: eventId(workspaceId, latest), event: "resync", data }));
        }
        stream.send(sseFrame({ event: "ready", data: { revision: from } }));
        for (const frame of request.greeting ?? []) stream.send(frame);
        if (!stream.isOpen()) return stream;
        const channel = channelOf(workspaceId);
        if (channel.fetched < 0) channel.fetched = latest;
        const sub: Subscriber = { stream, sent: from, catching: false, request };
        holder.sub = sub;
        holder.channel = channel;
        channel.subscribers.add(sub);
        pump(channel, sub);
        // Whatever committed since the latest was read, and any wake-up that came before the channel existed.
        void fetch(channel);
      } catch (err) {
        stream.close();
        throw err;
      }
      return stream;
    },
    broadcast(workspaceId, frame) {
      const channel = channels.get(workspaceId);
      if (!channel) return;
      for (const sub of channel.subscribers) if (!sub.stream.send(frame)) cutOff(channel, sub);
    },
    openStreams: () => open,
    feedMode: () => feedReady?.state().mode ?? null,
    drain,
    async close() {
      drain();
      clearInterval(ticker);
      const started = feed;
      feed = undefined;
      await (await started)?.close();
    },
  };
}
