import { createControlApp, parseEnv } from "@ams/control";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { TOOLS } from "@ams/mcp";
import * as model from "@ams/model";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * Every answer has a contract: each REST operation documents the body of its success answers with a schema that
 * says something (not a bare object), and each MCP tool declares its outputSchema, except the few whose answer is
 * text for the model to read. The schemas come from packages/model (and control's own), so a route or tool added
 * without one fails here.
 */
type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  items?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  allOf?: unknown[];
};
type Operation = {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Tools whose answer is a sentence or a document for the model to read, not data: they declare no outputSchema. */
const TEXT_ANSWER_TOOLS = new Set(["save_model", "export_model"]);

function resolve(schema: JsonSchema | undefined, doc: Document): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")];
}

/** A schema that says nothing about the answer: missing, `{}`, or an object without properties or value type. */
function saysNothing(raw: JsonSchema | undefined, doc: Document): boolean {
  const schema = resolve(raw, doc);
  if (!schema || Object.keys(schema).length === 0) return true;
  if (schema.anyOf || schema.oneOf || schema.allOf || schema.items) return false;
  if (schema.type !== "object") return false;
  const hasProperties = Object.keys(schema.properties ?? {}).length > 0;
  const typedValues =
    typeof schema.additionalProperties === "object" && Object.keys(schema.additionalProperties ?? {}).length > 0;
  return !hasProperties && !typedValues;
}

function undocumented(doc: Document): string[] {
  const missing: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const where = `${method.toUpperCase()} ${path} (${op.operationId ?? "?"})`;
      const successes = Object.entries(op.responses ?? {}).filter(([status]) => /^[23]\d\d$/.test(status));
      if (successes.length === 0) missing.push(`${where}: no success answer documented`);
      for (const [status, response] of successes) {
        // No content: done, or a redirect (sign-in and logout send the browser on).
        if (status === "204" || status.startsWith("3")) continue;
        const content = response.content ?? {};
        if (Object.keys(content).length === 0) missing.push(`${where}: ${status} has no content`);
        const json = content["application/json"];
        if (json && saysNothing(json.schema, doc)) missing.push(`${where}: ${status} is a bare object`);
      }
    }
  }
  return missing;
}

/** A zod schema as the route registry holds it: enough to tell an array and its element apart. */
type Zod = { safeParse?: unknown; def?: { type?: string }; element?: unknown };
type RegisteredRoute = {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

const isSchema = (value: unknown) => typeof (value as Zod | undefined)?.safeParse === "function";
const MODEL_SCHEMAS = new Set<unknown>(Object.values(model).filter(isSchema));

/**
 * Whether a tenant answer's schema is the model's: one of @ams/model's exported schemas, an array of one, or an
 * array of plain strings (the type lists). A schema a route file builds itself describes what the route thinks the
 * verb answers, and drifts from it.
 */
function ownedByModel(schema: unknown): boolean {
  if (MODEL_SCHEMAS.has(schema)) return true;
  const s = schema as Zod;
  if (s.def?.type !== "array") return false;
  return MODEL_SCHEMAS.has(s.element) || (s.element as Zod | undefined)?.def?.type === "string";
}

/** "operationId status" of each JSON success answer whose schema the model does not own. */
function notTheModels(routes: RegisteredRoute[]): string[] {
  const wrong: string[] = [];
  for (const route of routes) {
    for (const [status, response] of Object.entries(route.responses ?? {})) {
      const schema = response.content?.["application/json"]?.schema;
      if (/^2\d\d$/.test(status) && schema && !ownedByModel(schema)) wrong.push(`${route.operationId} ${status}`);
    }
  }
  return wrong;
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_contracts");
});
afterAll(() => database.drop());

describe("output schemas", () => {
  test("every tenant operation documents what it answers", () => {
    const tokens = createServiceTokens("c".repeat(40));
    const app = createTenantApp({ database, tokens, log: silentLogger });
    const doc = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
    }) as unknown as Document;
    expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
    expect(undocumented(doc)).toEqual([]);
  });

  test("every tenant answer is described by the model's own schema, not one the route file wrote", () => {
    const app = createTenantApp({ database, tokens: createServiceTokens("c".repeat(40)), log: silentLogger });
    const routes = app.openAPIRegistry.definitions.flatMap((d) =>
      d.type === "route" ? [d.route as RegisteredRoute] : [],
    );
    expect(routes.length).toBeGreaterThan(30);
    expect(notTheModels(routes)).toEqual([]);
  });

  test("the ownership check itself: a route's own object, or an array of one, is named", () => {
    const own = { safeParse: () => undefined, def: { type: "object" } };
    const answer = (schema: unknown) => ({ 200: { content: { "application/json": { schema } } } });
    const routes: RegisteredRoute[] = [
      { operationId: "modelOne", responses: answer(model.Element) },
      { operationId: "modelList", responses: answer({ def: { type: "array" }, element: model.Element }) },
      { operationId: "typeNames", responses: answer({ def: { type: "array" }, element: { def: { type: "string" } } }) },
      { operationId: "ownOne", responses: { 201: answer(own)[200] } },
      { operationId: "ownList", responses: answer({ def: { type: "array" }, element: own }) },
      { operationId: "gone", responses: { 204: {} } },
    ];
    expect(notTheModels(routes)).toEqual(["ownOne 201", "ownList 200"]);
  });

  test("every control operation documents what it answers", () => {
    const env = parseEnv({ NODE_ENV: "test" });
    const tokens = createServiceTokens(env.TENANT_JWT_SECRET);
    const app = createControlApp({ database, tokens, env, upstreams: { tenant: { fetch: () => new Response() } } });
    const doc = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "c", version: "1" },
    }) as unknown as Document;
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
    expect(undocumented(doc)).toEqual([]);
  });

  test("the check itself: a bare object, a missing answer and a reference to a bare object are caught", () => {
    const doc: Document = {
      components: { schemas: { Loose: { type: "object", properties: {}, additionalProperties: {} } } },
      paths: {
        "/a": {
          get: {
            operationId: "a",
            responses: { 200: { content: { "application/json": { schema: { type: "object" } } } } },
          },
        },
        "/b": { get: { operationId: "b", responses: { 400: {} } } },
        "/c": {
          get: {
            operationId: "c",
            responses: { 200: { content: { "application/json": { schema: { $ref: "#/components/schemas/Loose" } } } } },
          },
        },
        "/d": { delete: { operationId: "d", responses: { 204: {} } } },
      },
    };
    expect(undocumented(doc)).toEqual([
      "GET /a (a): 200 is a bare object",
      "GET /b (b): no success answer documented",
      "GET /c (c): 200 is a bare object",
    ]);
  });

  test("every MCP tool declares its outputSchema, except those whose answer is text to read", () => {
    const without = TOOLS.filter((t) => !t.output).map((t) => t.name);
    expect(without.sort()).toEqual([...TEXT_ANSWER_TOOLS].sort());
  });
});
