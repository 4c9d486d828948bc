import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { openDatabase } from "@ams/db";
import { getElement, listElements, listRelationships, type RequestContext } from "@ams/model";

/**
 * The floor of the load suite: the same three reads the mix sends (list elements with a filter, an element by id,
 * the relationship list), served by bare node:http calling the same domain verbs on a pool opened exactly as the
 * tenant opens its own (openDatabase's defaults), with no gateway, no token, no routing framework and no input
 * validation. Started as its own process by bench/load.ts:
 *   FLOOR_PORT=... DATABASE_URL=... | FLOOR_PGLITE_DIR=... METRICS_PORT=... node bench/load-floor.ts
 * Paths: /w/<workspace>/elements?type=&name=, /w/<workspace>/elements/<id>, /w/<workspace>/relationships.
 */
const database = await openDatabase(
  process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, migrate: false }
    : { dataDir: process.env.FLOOR_PGLITE_DIR },
);
// The same process figures the product's services publish (CPU, RSS, event-loop delay), on their own port. A tree
// whose services publish none (before 25 November, which `pnpm bench:compare` may run this file in) has no
// @ams/shared/http either: the floor then publishes nothing, and its CPU and RSS are read from /proc like theirs.
const http = await import("@ams/shared/http").catch((err: NodeJS.ErrnoException) => {
  if (err.code === "ERR_PACKAGE_PATH_NOT_EXPORTED") return undefined;
  throw err;
});
const metrics = http?.createServiceMetrics("floor");

/** What the gateway would have put in the inter-service token, fixed: this server trusts the path. */
const contextFor = (workspaceId: string): RequestContext => ({
  database,
  userId: "floor",
  username: "floor",
  organizationId: null,
  workspaceId,
  role: "viewer",
  platformAdmin: false,
});

async function answer(req: IncomingMessage): Promise<[number, string]> {
  const url = new URL(req.url ?? "/", "http://floor");
  const [, w, workspaceId, collection, id] = url.pathname.split("/");
  if (w !== "w" || !workspaceId) return [404, "{}"];
  const ctx = contextFor(workspaceId);
  if (collection === "elements" && id) return [200, JSON.stringify(await getElement({ ctx, input: { id } }))];
  if (collection === "elements") {
    const type = url.searchParams.get("type") ?? undefined;
    const name = url.searchParams.get("name") ?? undefined;
    return [200, JSON.stringify(await listElements({ ctx, input: { type, name } }))];
  }
  if (collection === "relationships") return [200, JSON.stringify(await listRelationships({ ctx, input: {} }))];
  return [404, "{}"];
}

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

createServer((req, res) => {
  answer(req).then(
    ([status, body]) => send(res, status, body),
    (err: Error) => send(res, 500, JSON.stringify({ title: err.message })),
  );
}).listen(Number(process.env.FLOOR_PORT), "127.0.0.1");

if (http && metrics) {
  createServer((_req, res) => {
    http.metricsResponse(metrics).then(async (r) => {
      res.writeHead(200, { "content-type": r.headers.get("content-type") ?? "text/plain" });
      res.end(await r.text());
    });
  }).listen(Number(process.env.METRICS_PORT), "127.0.0.1");
}
