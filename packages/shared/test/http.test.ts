import { OpenAPIHono, z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, test } from "vitest";
import {
  answer,
  limitBody,
  notFoundProblem,
  onErrorProblem,
  problemFromZod,
  problemResponse,
  type RequestIdVariables,
  refuseUnstorableText,
  registerRoute,
  requestId,
  SERVICE_TOKEN_HEADER,
  serviceClaimsOf,
  validationError,
} from "../src/http/index.ts";
import { AppError, createServiceTokens, memoryLogger, type ServiceClaims } from "../src/index.ts";

function app(log = memoryLogger("svc")) {
  const hono = new Hono<{ Variables: RequestIdVariables }>();
  hono.use("*", requestId());
  hono.onError(onErrorProblem(log));
  hono.notFound(notFoundProblem());
  hono.use("/small", limitBody(10));
  hono.use("/text", refuseUnstorableText());
  hono.post("/small", async (c) => c.text(await c.req.text()));
  hono.post("/text", (c) => c.text("stored"));
  hono.get("/id", (c) => c.text(c.var.requestId));
  hono.get("/conflict", () => {
    throw new AppError("CONFLICT", "Already there", { headers: { "Retry-After": "1" } });
  });
  hono.get("/crash", () => {
    throw new Error("secret internals");
  });
  hono.post("/json", () => {
    // What Hono's JSON validator throws for a body that does not parse.
    throw new HTTPException(400, { message: "Malformed JSON in request body" });
  });
  return { hono, log };
}

describe("problem responses", () => {
  test("an AppError answers its status as application/problem+json with its headers", async () => {
    const res = await app().hono.request("/conflict");
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({ status: 409, code: "CONFLICT", detail: "Already there" });
  });

  test("an unexpected error answers 500 without its message and is logged once with the request id", async () => {
    const { hono, log } = app();
    const res = await hono.request("/crash", { headers: { "x-request-id": "abc-1" } });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("secret internals");
    expect(res.headers.get("x-request-id")).toBe("abc-1");
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ level: "error", service: "svc", request_id: "abc-1" });
    expect(log.records[0]?.err).toMatchObject({ message: "secret internals" });
  });

  test("refusals the caller caused are not logged", async () => {
    const { hono, log } = app();
    expect((await hono.request("/conflict")).status).toBe(409);
    expect((await hono.request("/nowhere")).status).toBe(404);
    expect(log.records).toEqual([]);
  });

  test("an unknown route is a 404 problem naming method and path", async () => {
    const res = await app().hono.request("/nowhere", { method: "DELETE" });
    expect(await res.json()).toMatchObject({ status: 404, detail: "No route for DELETE /nowhere" });
  });

  test("malformed JSON is a 400 problem, not a 500", async () => {
    const res = await app().hono.request("/json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "BAD_REQUEST", detail: "Malformed JSON in request body" });
  });

  test("a database refusal maps to the problem a user can act on", async () => {
    const res = problemResponse(Object.assign(new Error("dup"), { code: "23505" }));
    expect(res.status).toBe(409);
  });
});

describe("validation", () => {
  const Body = z.strictObject({ name: z.string().min(1), size: z.number() });

  test("each issue becomes a field path; body fields bare, other targets prefixed; unknown keys named", () => {
    const result = Body.safeParse({ name: "", extra: 1 });
    if (result.success) throw new Error("expected a failure");
    const inBody = validationError(result.error, "json");
    expect(inBody.code).toBe("VALIDATION");
    expect(inBody.errors?.map((e) => e.path)).toEqual(["name", "size", "(root)"]);
    expect(inBody.errors?.[2]?.message).toContain("(extra)");
    const inQuery = validationError(result.error, "query");
    expect(inQuery.errors?.[0]?.path).toBe("query.name");
  });

  test("the defaultHook answers 422 for a failure and nothing for a success", async () => {
    const failed = Body.safeParse({});
    const res = problemFromZod({ ...failed, target: "json" }, {} as never);
    if (!res) throw new Error("expected a response");
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toHaveLength(2);
    expect(problemFromZod({ success: true }, {} as never)).toBeUndefined();
  });
});

describe("request bodies", () => {
  test("a body over the limit is refused with 413 naming the limit; one within passes", async () => {
    const { hono } = app();
    const big = await hono.request("/small", { method: "POST", body: "x".repeat(11) });
    expect(big.status).toBe(413);
    expect((await big.json()).detail).toBe("Request body exceeds the limit of 10 bytes");
    const fine = await hono.request("/small", { method: "POST", body: "x".repeat(10) });
    expect(await fine.text()).toBe("x".repeat(10));
  });

  test("text PostgreSQL cannot store is a 422 naming the field", async () => {
    const res = await app().hono.request("/text", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "a\u0000b" }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).errors[0].path).toBe("name");
  });
});

describe("request ids", () => {
  test("a fresh id per request, on the answer and in c.var", async () => {
    const { hono } = app();
    const a = await hono.request("/id");
    const b = await hono.request("/id");
    expect(await a.text()).toBe(a.headers.get("x-request-id"));
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  test("the caller's id is kept when it is short and printable, replaced otherwise", async () => {
    const { hono } = app();
    const kept = await hono.request("/id", { headers: { "x-request-id": "trace-42" } });
    expect(await kept.text()).toBe("trace-42");
    const replaced = await hono.request("/id", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(await replaced.text()).not.toContain("bad");
  });

  test("an answer with immutable headers (as fetch returns them) still gets the id", async () => {
    const hono = new Hono();
    hono.use("*", requestId());
    hono.get("/", () => Response.redirect("http://elsewhere/", 302));
    const res = await hono.request("/", { headers: { "x-request-id": "r1" } });
    expect(res.headers.get("x-request-id")).toBe("r1");
    expect(res.headers.get("location")).toBe("http://elsewhere/");
  });
});

describe("the service token header", () => {
  const tokens = createServiceTokens("s".repeat(40));
  const claims: ServiceClaims = {
    userId: "u1",
    username: "ann",
    organizationId: "o1",
    workspaceId: null,
    role: "editor",
    platformAdmin: false,
    apiTokenId: null,
    pinnedWorkspaceId: null,
  };

  test("is the one name every service reads", () => {
    expect(SERVICE_TOKEN_HEADER).toBe("x-ams-service-token");
  });

  test("a token signed for this audience yields its claims", async () => {
    expect(await serviceClaimsOf(tokens, await tokens.sign(claims, "tenant"), "tenant")).toEqual(claims);
  });

  test("missing, forged or for another audience: 401 with a Bearer challenge", async () => {
    const other = await tokens.sign(claims, "mcp");
    const forged = await createServiceTokens("f".repeat(40)).sign(claims, "tenant");
    for (const header of [undefined, "", forged, other]) {
      const err = await serviceClaimsOf(tokens, header, "tenant").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("UNAUTHENTICATED");
      expect((err as AppError).headers?.["WWW-Authenticate"]).toBe("Bearer");
    }
  });
});

describe("registerRoute", () => {
  function routes() {
    const api = new OpenAPIHono({ defaultHook: problemFromZod });
    api.onError(onErrorProblem(memoryLogger("svc")));
    const Job = z.object({ id: z.string(), done: z.boolean() }).openapi("Job");
    registerRoute(
      api,
      {
        method: "post",
        path: "/jobs/{id}",
        operationId: "runJob",
        tags: ["t"],
        params: z.object({ id: z.string() }),
        query: z.object({ wait: z.enum(["yes", "no"]) }),
        output: { schema: Job, description: "Done", also: { 202: "Still running" } },
      },
      (_c, { params, query }) =>
        query.wait === "yes"
          ? { id: params.id, done: true }
          : answer(202, { id: params.id, done: false }, { location: `/jobs/${params.id}` }),
    );
    registerRoute(
      api,
      {
        method: "get",
        path: "/wrong",
        operationId: "wrong",
        tags: ["t"],
        output: { schema: Job, description: "Done" },
      },
      () => answer(203, { id: "x", done: true }),
    );
    registerRoute(
      api,
      {
        method: "get",
        path: "/doc.xml",
        operationId: "getDoc",
        tags: ["t"],
        public: true,
        commonProblems: false,
        problems: { 404: "No such document" },
        output: {
          raw: {
            200: { description: "The document", content: { "application/xml": z.string() } },
            304: { description: "Not modified" },
          },
        },
      },
      (c) => c.body("<doc/>", 200, { "content-type": "application/xml" }),
    );
    registerRoute(api, { method: "delete", path: "/jobs/{id}", operationId: "deleteJob", tags: ["t"] }, () => {});
    return api;
  }

  test("a JSON answer uses the contract's status, or the declared one answer() picks, with its headers", async () => {
    const api = routes();
    const done = await api.request("/jobs/7?wait=yes", { method: "POST" });
    expect([done.status, await done.json()]).toEqual([200, { id: "7", done: true }]);
    const running = await api.request("/jobs/7?wait=no", { method: "POST" });
    expect([running.status, running.headers.get("location"), await running.json()]).toEqual([
      202,
      "/jobs/7",
      { id: "7", done: false },
    ]);
  });

  test("invalid input is a 422 naming the field; an undeclared status is a 500, not a silent answer", async () => {
    const api = routes();
    const bad = await api.request("/jobs/7?wait=maybe", { method: "POST" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("wait");
    expect((await api.request("/wrong")).status).toBe(500);
  });

  test("a raw output answers the handler's Response; no output answers 204", async () => {
    const api = routes();
    const doc = await api.request("/doc.xml");
    expect([doc.status, doc.headers.get("content-type"), await doc.text()]).toEqual([200, "application/xml", "<doc/>"]);
    expect((await api.request("/jobs/7", { method: "DELETE" })).status).toBe(204);
  });

  test("the OpenAPI document has every declared status, media type and refusal", () => {
    const doc = routes().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const run = doc.paths?.["/jobs/{id}"]?.post;
    expect(Object.keys(run?.responses ?? {})).toEqual(["200", "202", "400", "401", "403", "404", "409", "413", "422"]);
    expect(run?.responses?.["202"]).toMatchObject({
      description: "Still running",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Job" } } },
    });
    const get = doc.paths?.["/doc.xml"]?.get;
    expect(get?.security).toEqual([]);
    expect(get?.responses).toEqual({
      200: { description: "The document", content: { "application/xml": { schema: { type: "string" } } } },
      304: { description: "Not modified" },
      404: {
        description: "No such document",
        content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
      },
    });
    expect(Object.keys(doc.paths?.["/jobs/{id}"]?.delete?.responses ?? {})[0]).toBe("204");
  });
});
