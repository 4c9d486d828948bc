import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

/** Input a clumsy client or an attacker sends: each answer is a 4xx problem naming the field, never a 500. */
let h: TenantHarness;
let org: OrgFixture;
let elementId: string;

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  elementId = (await org.owner.post("/api/elements", { name: "Plain", type: "BusinessActor" })).body.id;
});
afterAll(async () => h?.close());

describe("an upload over the limit", () => {
  test("is a 413 that says the limit, for a multipart file and for a raw body", async () => {
    const small = await tenantHarness({ uploadLimit: 64 * 1024 });
    try {
      const o = await small.organization();
      const boundary = "----ams-limit";
      const big = "<x>".padEnd(200 * 1024, "a");
      const form = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBig\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.xml"\r\n\r\n${big}\r\n--${boundary}--\r\n`;
      const viaForm = await small.call(o.owner.caller, "POST", "/api/workspaces", form, {
        "content-type": `multipart/form-data; boundary=${boundary}`,
      });
      expect(viaForm.status).toBe(413);
      expect(viaForm.body.detail).toMatch(/limit of (65536 bytes|0\.1 MiB)/);
      const raw = await small.call(o.owner.caller, "POST", "/api/import", big, { "content-type": "application/xml" });
      expect(raw.status).toBe(413);
      expect(raw.body.detail).toMatch(/65536 bytes/);
    } finally {
      await small.close();
    }
  });
});

const NUL = "\u0000";

describe("a NUL character anywhere is a 422 naming where it was", () => {
  test.each([
    ["an element name", "POST", "/api/elements", { name: `CR${NUL}M`, type: "ApplicationComponent" }, "name"],
    [
      "a property key",
      "POST",
      "/api/elements",
      { name: "X", type: "ApplicationComponent", properties: { [`Own${NUL}er`]: "me" } },
      "properties.Own\\u0000er",
    ],
    [
      "a property value",
      "POST",
      "/api/elements",
      { name: "X", type: "Node", properties: { Owner: NUL } },
      "properties.Owner",
    ],
    ["a view name", "POST", "/api/views", { name: `V${NUL}` }, "name"],
    ["a workspace description", "POST", "/api/workspaces", { name: "W", description: NUL }, "description"],
    ["an explore query", "POST", "/api/explore", { query: `RETURN 1${NUL}` }, "query"],
  ])("%s", async (_what, method, path, body, field) => {
    const res = await h.call(org.owner.caller, method, path, body);
    expect(res.status, res.text).toBe(422);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.errors).toEqual([{ path: field, message: "must not contain the NUL character (\\u0000)" }]);
  });

  test.each([
    ["a list filter", `/api/elements?name=a%00b`, "query.name"],
    ["a relationship filter", `/api/relationships?source_id=%00`, "query.source_id"],
    ["an identifier in the path", `/api/elements/id-%00`, "path"],
  ])("%s", async (_what, path, field) => {
    const res = await org.viewer.get(path);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].path).toBe(field);
  });

  test("an update that would store NUL changes nothing", async () => {
    const res = await org.owner.put(`/api/elements/${elementId}`, { documentation: `a${NUL}b` });
    expect(res.status).toBe(422);
    expect((await org.owner.get(`/api/elements/${elementId}`)).body.documentation ?? null).toBeNull();
  });
});

describe("malformed uploads are refused, not crashed on", () => {
  const boundary = "----ams-test-boundary";
  const multipart = (body: string) => ({ "content-type": `multipart/form-data; boundary=${boundary}`, body });

  test.each([
    ["a body that is not multipart at all", "garbage without any boundary"],
    ["a part without headers", `--${boundary}\r\n\r\nno headers\r\n--${boundary}--\r\n`],
    [
      "an unterminated part",
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="m.xml"\r\n\r\n<model`,
    ],
  ])("POST /api/workspaces with %s", async (_what, raw) => {
    const { body, ...headers } = multipart(raw);
    const res = await h.call(org.owner.caller, "POST", "/api/workspaces", body, headers);
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
    expect(res.body.detail).toBeTruthy();
  });

  test("a form with too many parts is refused while it streams, naming the limit", async () => {
    let raw = "";
    for (let i = 0; i < 500; i++) raw += `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`;
    const { body, ...headers } = multipart(`${raw}--${boundary}--\r\n`);
    const res = await h.call(org.owner.caller, "POST", "/api/workspaces", body, headers);
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/at most (8 fields|10 parts)/);
  });

  test("POST /api/import with a multipart body that has no file", async () => {
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nvalue\r\n--${boundary}--\r\n`;
    const { body, ...headers } = multipart(raw);
    const res = await h.call(org.owner.caller, "POST", "/api/import", body, headers);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("file");
    expect(res.body.detail).toMatch(/no file field named .file./);
  });
});

describe("after a 413 the next request on a kept-alive connection still works", () => {
  test("the refusal says Connection: close, and the client's next request is answered", async () => {
    const { serve } = await import("@hono/node-server");
    const http = await import("node:http");
    const { closeAfterRefusedBody } = await import("@ams/shared");
    const small = await tenantHarness({ uploadLimit: 16 * 1024 });
    const server = serve({ fetch: closeAfterRefusedBody(small.app.fetch), port: 0, hostname: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as { port: number };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; connection?: string; socket: unknown }>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, method, path, agent }, (res) => {
          res.resume();
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }),
          );
        });
        req.on("error", reject);
        if (body !== undefined) {
          req.setHeader("content-type", "application/xml");
          req.setHeader("content-length", Buffer.byteLength(body));
          req.end(body);
        } else req.end();
      });
    try {
      const first = await send("POST", "/api/import", "<x>".padEnd(64 * 1024, "a"));
      expect(first.status).toBe(413);
      expect(first.connection).toBe("close");
      // The same client, the same agent: it must not reuse the socket the server is closing.
      const second = await send("GET", "/api/health");
      expect(second.status).toBe(200);
    } finally {
      agent.destroy();
      server.close();
      await small.close();
    }
  });
});

describe("an imported file is held to the same text limits as the REST API", () => {
  const model = (elements: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="id-m">
  <name>Limits</name>
  <elements>
${elements}
  </elements>
</model>`;

  test.each([
    [
      "an identifier over 8 KB",
      `    <element identifier="id-${"x".repeat(8200)}" xsi:type="BusinessActor"><name>A</name></element>`,
      /line 5: identifier 'id-x+…' is 8203 characters long; the limit is 200/,
    ],
    [
      "a 10 MB element name",
      `    <element identifier="id-big" xsi:type="BusinessActor"><name>${"n".repeat(10 * 1024 * 1024)}</name></element>`,
      /line 5: <name> is 10485760 characters long; the limit is 10000/,
    ],
    [
      "an over-long property value",
      `    <element identifier="id-p" xsi:type="BusinessActor"><name>P</name><properties><property propertyDefinitionRef="pd-1"><value>${"v".repeat(100_001)}</value></property></properties></element>`,
      /<value> is 100001 characters long; the limit is 100000/,
    ],
  ])("%s is refused with its line, and the model already there stays whole", async (_what, element, message) => {
    const o = await h.organization();
    const kept = await o.owner.post("/api/elements", { name: "Kept", type: "Node" });
    expect(kept.status).toBe(201);
    const xml = model(element);
    const withDefs = xml.includes("pd-1")
      ? xml.replace(
          "</elements>",
          '</elements>\n  <propertyDefinitions><propertyDefinition identifier="pd-1" type="string"><name>Owner</name></propertyDefinition></propertyDefinitions>',
        )
      : xml;
    const res = await h.call(o.owner.caller, "POST", "/api/import", withDefs, { "content-type": "application/xml" });
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.body.detail).toMatch(message);
    const left = await o.owner.get("/api/elements");
    expect(left.body.map((e: { name: string }) => e.name)).toEqual(["Kept"]);
  });
});

describe("an unpaired surrogate is refused like NUL", () => {
  test("a dashboard title of \\udfff\\ud800 is a 422 naming the field, not a 500", async () => {
    const res = await h.call(
      org.owner.caller,
      "POST",
      "/api/dashboards",
      '{"title":"\\udfff\\ud800","parameters":[],"panels":[]}',
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].path).toBe("title");
    expect(res.body.detail).toMatch(/valid Unicode text/);
  });
});
