import { limitRequestBodies } from "@ams/control";
import { Hono } from "hono";
import { interleaved, report, section } from "./lib.ts";

/**
 * Issue 22, finding 7: what control's body limit (the first middleware that may look at a body) adds to a request.
 * The same small app is served with and without it, in the same process and the same run, interleaved round by
 * round: a sign-in sized JSON body with Content-Length (a header check), the same body streamed without one (counted
 * and buffered up to the limit), and a GET without a body.
 */
export async function benchBodyLimit() {
  const limited = new Hono();
  limited.use("*", limitRequestBodies({ jsonBytes: 1024 * 1024, uploadBytes: 50 * 1024 * 1024 }));
  const bare = new Hono();
  for (const app of [limited, bare]) {
    app.post("/api/auth/local/login", async (c) => c.json(await c.req.json()));
    app.get("/api/me", (c) => c.json({ ok: true }));
  }
  const body = JSON.stringify({ username: "archi", password: "a-password-of-ordinary-length" });
  const bytes = new TextEncoder().encode(body);
  const post = (app: Hono, declared: boolean) => async () => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (declared) headers["content-length"] = String(bytes.length);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const res = await app.fetch(
      new Request("http://control.test/api/auth/local/login", {
        method: "POST",
        headers,
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    if (res.status !== 200) throw new Error(`sign-in sized POST: ${res.status}`);
    return res.text();
  };
  const get = (app: Hono) => async () => (await app.fetch(new Request("http://control.test/api/me"))).text();

  section("Body limit (control's first middleware): the same request with and without it, in-process");
  for (const [what, withLimit, without] of [
    ["POST JSON with Content-Length", post(limited, true), post(bare, true)],
    ["POST JSON streamed, no Content-Length", post(limited, false), post(bare, false)],
    ["GET without a body", get(limited), get(bare)],
  ] as const) {
    const [floor, limitedStats] = await interleaved([without, withLimit], { iterations: 20_000, warmup: 2_000 });
    const added = limitedStats!.median - floor!.median;
    report(`${what}: without the limit, median`, floor!.median, null, "(the floor)", true);
    report(
      `${what}: with the limit, median (+${(added * 1000).toFixed(1)} µs)`,
      limitedStats!.median,
      floor!.median,
      "<= 0.05 ms added",
      added <= 0.05,
    );
  }
}
