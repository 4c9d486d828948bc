import { createServer, type Server } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
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
  app.delete("/gone", (c) => c.body(null, 204));
  // An event stream that sends its first event and then waits: a proxy that buffers would never hand it on.
  app.get("/events", () => {
    let timer: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: first\n\n"));
        timer = setTimeout(() => controller.close(), 5_000);
      },
      cancel() {
        clearTimeout(timer);
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  app.get("/big", (c) => c.text("x".repeat(3 * 1024 * 1024)));
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

  test("a compressed answer is passed on as sent, labelled with its encoding", async () => {
    const res = await createHttpUpstream(base).fetch(new Request("http://control.example/gz"));
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual({ compressed: true });
  });

  test("redirects are passed back, not followed", async () => {
    const res = await createHttpUpstream(base).fetch(new Request("http://control.example/redirect"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/elsewhere");
  });

  test("a 204 answer has no body, and a large answer arrives whole", async () => {
    const upstream = createHttpUpstream(base);
    const gone = await upstream.fetch(new Request("http://control.example/gone", { method: "DELETE" }));
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe("");
    const big = await upstream.fetch(new Request("http://control.example/big"));
    expect((await big.text()).length).toBe(3 * 1024 * 1024);
  });

  test("an event stream is handed on as it comes, not when it ends", async () => {
    const res = await createHttpUpstream(base).fetch(new Request("http://control.example/events"));
    const reader = res.body!.getReader();
    const first = await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the first event was held back")), 2_000)),
    ]);
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    await reader.cancel();
  });

  test("an unreachable upstream rejects, for the gateway to answer 503", async () => {
    const closed = createHttpUpstream("http://127.0.0.1:9/");
    await expect(closed.fetch(new Request("http://control.example/api/health"))).rejects.toThrow();
  });

  test("a kept-alive connection the upstream dropped is retried once for a request without a body, never with one", async () => {
    // Answers the first request of each connection and keeps it open; drops the connection at its second request,
    // as a server does whose idle timeout ends just as the next request arrives.
    let connections = 0;
    const dropping: Server = createServer((socket) => {
      connections++;
      let requests = 0;
      socket.on("data", (chunk) => {
        if (!chunk.toString("latin1").includes("\r\n\r\n")) return;
        requests++;
        if (requests === 1) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        else socket.resetAndDestroy();
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    const { port } = dropping.address() as { port: number };
    try {
      const upstream = createHttpUpstream(`http://127.0.0.1:${port}`);
      const first = await upstream.fetch(new Request("http://control.example/a"));
      expect(await first.text()).toBe("ok");
      const again = await upstream.fetch(new Request("http://control.example/b"));
      expect(await again.text(), "the GET sent again on a fresh connection").toBe("ok");
      expect(connections).toBe(2);
      const post = upstream.fetch(new Request("http://control.example/c", { method: "POST", body: "{}" }));
      await expect(post, "a body is never sent twice").rejects.toThrow();
      expect(connections).toBe(2);
    } finally {
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});
