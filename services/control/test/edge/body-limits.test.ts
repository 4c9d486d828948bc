import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { testLogger } from "@ams/shared";
import { type HttpService, runHttpService } from "@ams/shared/http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * Issue 22, finding 7: an anonymous caller must not make control hold a large body. Each request here declares
 * 20 MB (or streams chunks without end) but sends only a part: an answer that arrives while the rest was never sent
 * proves that control did not wait to read (let alone parse) it. Served over a real socket as main.ts serves control.
 */
const MB20 = 20 * 1024 * 1024;
const JSON_LIMIT = 1024 * 1024;

type Served = { h: Harness; service: HttpService; port: number };

async function serve(env: Record<string, string>): Promise<Served> {
  const h = await createHarness({ env: { UPLOAD_LIMIT_MB: "2", ...env } });
  const service = runHttpService({
    log: testLogger("http"),
    fetch: h.app.fetch,
    port: 0,
    hostname: "127.0.0.1",
    handleSignals: false,
    drainMs: 500,
    close: async () => {},
  });
  await service.listening;
  return { h, service, port: (service.server.address() as AddressInfo).port };
}

type Answer = { status: number; headers: string; body: string; ms: number; bytesSent: number };

/**
 * Writes a request head and `sent` bytes of its body, then waits (at most 5 s) for the answer without sending more.
 * `chunked`: Transfer-Encoding chunked (the body's size unknown up front), else Content-Length `declared` (20 MB).
 */
function partialRequest(
  port: number,
  opts: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    sent: number;
    chunked?: boolean;
    declared?: number;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let bytesSent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 5 s after ${bytesSent} of ${MB20} bytes: the server waited for the body`));
    }, 5_000);
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      ...(opts.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(opts.declared ?? MB20) }),
      ...opts.headers,
    };
    socket.on("connect", () => {
      const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`${opts.method ?? "POST"} ${opts.path} HTTP/1.1\r\n${head.join("")}\r\n`);
      const piece = Buffer.alloc(64 * 1024, "a");
      piece.write('{"username":"', 0);
      while (bytesSent < opts.sent) {
        if (opts.chunked) socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(piece);
        if (opts.chunked) socket.write("\r\n");
        bytesSent += piece.length;
      }
    });
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = received.slice(0, end);
      let body = received.slice(end + 4);
      if (/transfer-encoding: chunked/i.test(head)) {
        if (!body.endsWith("0\r\n\r\n")) return;
        body = unchunk(body);
      } else if (body.length < Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)) {
        return;
      }
      clearTimeout(timer);
      socket.destroy();
      resolve({
        status: Number(head.split(" ")[1]),
        headers: head.toLowerCase(),
        body,
        ms: performance.now() - started,
        bytesSent,
      });
    });
    socket.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The payload of a complete chunked HTTP/1.1 body. */
function unchunk(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const eol = text.indexOf("\r\n", at);
    const size = Number.parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

function expectRefusedUnread(a: Answer, limit = JSON_LIMIT) {
  expect(a.status).toBe(413);
  expect(a.headers).toContain("content-type: application/problem+json");
  expect(a.headers).toContain("connection: close");
  expect(JSON.parse(a.body)).toMatchObject({ status: 413, detail: `Request body exceeds the limit of ${limit} bytes` });
  expect(a.bytesSent).toBeLessThan(MB20 / 4);
}

describe("local profile", () => {
  let s: Served;
  let owner: TestUser;
  beforeAll(async () => {
    s = await serve({});
    owner = await s.h.user("olga");
    const org = await s.h.org("Bounded", [[owner, "owner"]]);
    await s.h.workspace(org.id);
  });
  afterAll(async () => {
    await s.service.shutdown("test over");
    await s.h.close();
  });

  test.each([
    ["/api/auth/local/login"],
    ["/oauth/token"],
    ["/api/elements"],
    ["/api/organizations/00000000-0000-4000-8000-000000000000/members"],
  ])("an anonymous 20 MB JSON body to %s is refused with 413 before it is read", async (path) => {
    expectRefusedUnread(await partialRequest(s.port, { path, sent: 64 * 1024 }));
  });

  test("a chunked body without a declared size is refused once it passes the limit, not read to its end", async () => {
    const a = await partialRequest(s.port, { path: "/api/auth/local/login", sent: 2 * 1024 * 1024, chunked: true });
    expectRefusedUnread(a);
  });

  test("an upload route answers 401 to an anonymous caller without reading the body", async () => {
    const declared = 1536 * 1024; // within UPLOAD_LIMIT_MB (2 here)
    const a = await partialRequest(s.port, { path: "/api/import", sent: 64 * 1024, declared });
    expect(a.status).toBe(401);
    expect(a.bytesSent).toBeLessThan(MB20 / 4);
  });

  test("signed in, an upload over UPLOAD_LIMIT_MB is refused as it streams; one within it is passed on whole", async () => {
    const as = await s.h.session(owner);
    const cookie = as && "cookies" in as ? `access_token=${as.cookies.access_token}` : "";
    const headers = { cookie, origin: `http://127.0.0.1:${s.port}`, "content-type": "application/xml" };
    const over = await partialRequest(s.port, { path: "/api/import", headers, sent: 3 * 1024 * 1024, chunked: true });
    expectRefusedUnread(over, 2 * 1024 * 1024);
    const declared = await partialRequest(s.port, { path: "/api/import", headers, sent: 64 * 1024 });
    expectRefusedUnread(declared, 2 * 1024 * 1024);
    const body = "<model/>".padEnd(1536 * 1024, " ");
    const res = await fetch(`http://127.0.0.1:${s.port}/api/import`, {
      method: "POST",
      headers,
      body: new Blob([body]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(200);
    expect(s.h.recorder.last().body).toHaveLength(body.length);
  });

  test("the NUL check still answers 422 naming the field, after authentication", async () => {
    const anonymous = await s.h.call("PUT", "/api/organizations/00000000-0000-4000-8000-000000000000", {
      body: { name: "a\u0000b" },
    });
    expect(anonymous.status).toBe(401);
    const res = await s.h.call("POST", "/api/auth/local/login", { body: { username: "x\u0000", password: "y" } });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toContain("username");
  });
});

describe("session profile", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ AUTH_MODE: "session" });
  });
  afterAll(async () => {
    await s.service.shutdown("test over");
    await s.h.close();
  });

  test("better-auth's sign-in never reads more than the limit", async () => {
    const origin = { origin: "http://control.test" };
    expectRefusedUnread(await partialRequest(s.port, { path: "/auth/sign-in/username", headers: origin, sent: 65536 }));
    const chunked = await partialRequest(s.port, {
      path: "/auth/sign-in/username",
      headers: origin,
      sent: 2 * 1024 * 1024,
      chunked: true,
    });
    expectRefusedUnread(chunked);
  });
});
