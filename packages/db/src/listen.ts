import postgres from "postgres";

/**
 * What a NOTIFY subscriber is told: each payload on its channel, and whether the subscription is in place.
 * Between live(false) and the next live(true) notifications may have been missed: a subscriber that keeps state
 * derived from them must stop trusting it (and start afresh at live(true)).
 */
export type ListenHandlers = { notify(payload: string): void; live(isLive: boolean): void };
export type StopListening = () => Promise<void>;

/**
 * postgres.js delivers a connection's notifications to this option (its own listen() uses it on the connection it
 * keeps for LISTEN); the type declarations omit it.
 */
type NotifyOption = { onnotify(channel: string, payload: string): void };

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/**
 * LISTEN on a connection of its own (a pool's connections are shared, and postgres.js drops a lost listener when
 * its re-LISTEN fails): a lost connection reports live(false) and is replaced, with a backoff from 0.1 to 5 s,
 * until it succeeds or stop() is called.
 */
export function listenPostgres(
  url: string,
  applicationName: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<StopListening> {
  let stopped = false;
  let current: postgres.Sql | undefined;
  let retryMs = FIRST_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  };
  const connect = async (): Promise<void> => {
    const options: postgres.Options<Record<string, never>> & NotifyOption = {
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      onnotice: () => {},
      connection: { application_name: applicationName },
      onnotify: (name, payload) => {
        if (name === channel && client === current) handlers.notify(payload);
      },
      onclose: () => {
        if (client !== current) return;
        current = undefined;
        handlers.live(false);
        void client.end({ timeout: 0 });
        retry();
      },
    };
    const client: postgres.Sql = postgres(url, options);
    try {
      await client.unsafe(`listen "${channel.replace(/"/g, '""')}"`);
    } catch {
      await client.end({ timeout: 0 });
      retry();
      return;
    }
    if (stopped) {
      await client.end({ timeout: 0 });
      return;
    }
    current = client;
    retryMs = FIRST_RETRY_MS;
    handlers.live(true);
  };
  return connect().then(() => async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = undefined;
    await client?.end({ timeout: 1 });
  });
}
