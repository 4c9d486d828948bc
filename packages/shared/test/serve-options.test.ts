import { describe, expect, test } from "vitest";
import { closeAfterRefusedBody, listenHost } from "../src/index.ts";

describe("listen address", () => {
  test("loopback unless HOST says otherwise (the images set 0.0.0.0)", () => {
    expect(listenHost(undefined)).toBe("127.0.0.1");
    expect(listenHost("  ")).toBe("127.0.0.1");
    expect(listenHost("0.0.0.0")).toBe("0.0.0.0");
    expect(listenHost("::")).toBe("::");
  });
});

describe("closeAfterRefusedBody", () => {
  test("adds Connection: close to a 413 only, keeping status, body and other headers", async () => {
    const fetch = closeAfterRefusedBody(async (req: Request) =>
      req.url.endsWith("/big")
        ? new Response("too large", { status: 413, headers: { "content-type": "text/plain", "x-id": "1" } })
        : new Response("ok", { status: 200 }),
    );
    const refused = await fetch(new Request("http://svc/big"));
    expect(refused.status).toBe(413);
    expect(refused.headers.get("connection")).toBe("close");
    expect(refused.headers.get("x-id")).toBe("1");
    expect(await refused.text()).toBe("too large");
    const fine = await fetch(new Request("http://svc/small"));
    expect(fine.headers.get("connection")).toBeNull();
  });
});
