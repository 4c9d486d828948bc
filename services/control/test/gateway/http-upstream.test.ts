import { gzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpUpstream } from "../../src/gateway/http-upstream.ts";

/** Split mode transport: a real HTTP server on a free port stands for the tenant service. */
let server: ReturnType<typeof serve>;
let base: string;

beforeAll(async () => {
  const app = new Hono();
  app.all("/svc/*", async (c) =>
    c.json({
      method: c.req.method,
      path: c.req.path,
      query: c.req.query(),
      body: await c.req.text(),
      token: c.req.header("x-ams-service-token") ?? null,
      type: c.req.header("content-type") ?? null,
    }),
  );
  app.get("/gz", () => {
    const body = gzipSync(JSON.stringify({ compressed: true }));
    return new Response(body, { headers: { "content-type": "application/json", "content-encoding": "gzip" } });
  });
  app.get("/redirect", (c) => c.redirect("/elsewhere", 302));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("createHttpUpstream", () => {
  test("forwards method, path under a base path, query, headers and a streamed body", async () => {
    const upstream = createHttpUpstream(`${base}/svc/`);
    const res = await upstream.fetch(
      new Request("http://control.example/api/elements/e1?type=Node&x=%20y", {
        method: "POST",
        headers: { "content-type": "application/json", "x-ams-service-token": "signed" },
        body: JSON.stringify({ name: "CRM" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      method: "POST",
      path: "/svc/api/elements/e1",
      query: { type: "Node", x: " y" },
      body: '{"name":"CRM"}',
      token: "signed",
      type: "application/json",
    });
  });

  test("a body fetch decoded is not labelled as still compressed", async () => {
    const res = await createHttpUpstream(base).fetch(new Request("http://control.example/gz"));
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.json()).toEqual({ compressed: true });
  });

  test("redirects are passed back, not followed", async () => {
    const res = await createHttpUpstream(base).fetch(new Request("http://control.example/redirect"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/elsewhere");
  });
});
