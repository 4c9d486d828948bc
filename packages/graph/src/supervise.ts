import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@ams/shared";
import type { LocalNeo4j } from "./local-neo4j.ts";

export type Supervised = {
  /** Why the graph is down right now ("restarting after ..."), undefined while it is up. */
  down(): string | undefined;
  /** How many times the process was restarted. */
  restarts(): number;
  stop(): Promise<void>;
};

/**
 * Keeps a local Neo4j running: its exit (a crash, an out-of-memory kill, kill -9) is noticed at once through the
 * child process, the graph reports itself down (so routes answer 503 at once and the health check says why), and the
 * process is started again on the same port and with the same password, after 1 s, then 2, 4 ... up to 30 s
 * between failed tries. The driver reconnects by itself once the port answers again.
 */
export function superviseLocalNeo4j(first: LocalNeo4j, start: () => Promise<LocalNeo4j>, log: Logger): Supervised {
  let current = first;
  let stopping = false;
  let downSince: number | undefined;
  let reason = "";
  let restarts = 0;

  const watch = (process: LocalNeo4j) => {
    void process.exited.then((how) => {
      if (stopping || process !== current) return;
      downSince = Date.now();
      reason = how;
      log.warn(`the local Neo4j stopped (${how}); restarting it`);
      void restart();
    });
  };

  const restart = async () => {
    let delay = 1_000;
    while (!stopping) {
      try {
        const next = await start();
        if (stopping) {
          await next.stop();
          return;
        }
        current = next;
        restarts++;
        downSince = undefined;
        log.info(`the local Neo4j is back (restart ${restarts})`);
        watch(next);
        return;
      } catch (err) {
        log.warn(
          `restarting the local Neo4j failed: ${(err as Error).message.split("\n")[0]}; next try in ${delay} ms`,
        );
        await sleep(delay);
        delay = Math.min(delay * 2, 30_000);
      }
    }
  };

  watch(first);
  return {
    down: () =>
      downSince === undefined
        ? undefined
        : `The graph database stopped (${reason}) and is being restarted (down for ${Math.round((Date.now() - downSince) / 1000)} s); try again shortly`,
    restarts: () => restarts,
    async stop() {
      stopping = true;
      await current.stop();
    },
  };
}
