import { AppError } from "@ams/shared";
import type { RequestContext } from "../context.ts";

/** Concurrent explore and panel queries one caller, and one organization, may have running on this replica. */
export const QUERY_SLOTS = { perUser: 4, perOrganization: 8 } as const;

const running = new Map<string, number>();

const busy = (who: string) =>
  new AppError("RATE_LIMITED", `Too many graph queries are running for ${who}; retry when one has finished`, {
    headers: { "Retry-After": "1" },
  });

/**
 * Runs a graph query in one of the caller's slots: past QUERY_SLOTS, the caller gets 429 with Retry-After instead
 * of queueing more work on the shared graph database (a dashboard of many panels, or a script, cannot starve the
 * other users of the organization or the other organizations). The slot is given back when the query has answered
 * and every promise handed to `hold` has settled: a query answered at its deadline while Neo4j is still inside one
 * expression keeps its slot until the server lets go of the transaction.
 */
export async function withQuerySlot<T>(
  ctx: RequestContext,
  run: (hold: (ended: Promise<unknown>) => void) => Promise<T>,
): Promise<T> {
  const userKey = `u:${ctx.userId}`;
  const orgKey = `o:${ctx.organizationId ?? "-"}`;
  if ((running.get(userKey) ?? 0) >= QUERY_SLOTS.perUser) throw busy("you");
  if ((running.get(orgKey) ?? 0) >= QUERY_SLOTS.perOrganization) throw busy("your organization");
  running.set(userKey, (running.get(userKey) ?? 0) + 1);
  running.set(orgKey, (running.get(orgKey) ?? 0) + 1);
  const held: Promise<unknown>[] = [];
  const release = () => {
    for (const key of [userKey, orgKey]) {
      const left = (running.get(key) ?? 1) - 1;
      if (left <= 0) running.delete(key);
      else running.set(key, left);
    }
  };
  try {
    return await run((ended) => held.push(ended));
  } finally {
    if (held.length === 0) release();
    else void Promise.allSettled(held).then(release);
  }
}
