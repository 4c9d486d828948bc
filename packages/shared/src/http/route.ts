import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, Env } from "hono";
import { JsonBody } from "../json-body.ts";
import { etagOf, expectedRevisionOf } from "./etag.ts";
import { jsonContent, noContent, problemDoc, problemResponses } from "./openapi.ts";

type Schema = z.ZodType;
type Infer<S> = S extends Schema ? z.output<S> : undefined;
type SuccessStatus = 200 | 201 | 202;

/**
 * A JSON answer: its schema, status (200 by default) and description. `also` lists further statuses answered with
 * the same schema (a rebuild that is done 200 or still running 202, a health probe 200 or 503); the handler picks
 * one by returning `answer(status, body)`.
 */
export type JsonOutput<S extends Schema = Schema> = {
  schema: S;
  status?: SuccessStatus;
  description: string;
  also?: { [status: number]: string };
};

/**
 * Answers that are not JSON: per status, a description and the body's schema by media type (a string for XML and
 * SVG, a binary string for PNG and ZIP, nothing for a redirect or 304). The handler builds the Response itself,
 * because it sets what only it knows: content type, disposition, cache and security headers, cookies.
 */
export type RawOutput = {
  raw: { [status: number]: { description: string; content?: { [mediaType: string]: Schema } } };
};

export type RouteOutput = JsonOutput | RawOutput;

/**
 * What a route declares, and all it declares: method, path, input (path parameters, query, body) and output.
 * Without `output` the route answers 204. Both services' route files are lists of these.
 */
export type RouteContract<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  Out extends RouteOutput | undefined,
> = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI style: `/api/elements/{id}`. */
  path: string;
  operationId: string;
  tags: string[];
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out (or sent as another content type): the route then gets the schema's value for {}. */
  bodyOptional?: boolean;
  /**
   * A body that is not JSON (an XML upload, a multipart form), documented by media type and read by the handler
   * from the request as it streams, with its own limits, rather than buffered whole by a validator first.
   */
  rawBody?: { [mediaType: string]: Schema | Record<string, unknown> };
  /** The answer; absent: 204 No Content. */
  output?: Out;
  /** Refusals this route words itself, e.g. { 409: "The last owner cannot be removed" }. */
  problems?: { [status: number]: string };
  /**
   * false: document only `problems`, not the refusals every gateway-forwarded route may answer (for the routes a
   * browser or a probe reaches without a caller: sign-in, health, public icons).
   */
  commonProblems?: boolean;
  /** Reached without credentials: the OpenAPI operation says so (`security: []`). */
  public?: boolean;
  /** A GET of one workspace object: the answer carries the object's ETag (etagOf its revision). */
  etag?: true;
  /**
   * A PUT, PATCH or DELETE of one workspace object that takes If-Match: the handler gets the expected revision as
   * `expectedRevision` (a malformed header is a 400 before it runs) and hands it to the verb, which compares it in
   * the write's transaction. The schema is the object's: a stale tag answers 412 with the object as it is now.
   */
  ifMatch?: Schema;
};

/**
 * The validated input of one request, as the contract declared it. `expectedRevision`: the revision If-Match names,
 * for a contract with `ifMatch` (undefined without the header or with `*`).
 */
export type RouteInput<P, Q, B> = { params: Infer<P>; query: Infer<Q>; body: Infer<B>; expectedRevision?: number };

const ANSWER = Symbol("answer");

/** A JSON answer with a status other than the contract's default; the status must be one the contract declares. */
export type Answer<T> = { [ANSWER]: true; status: number; body: T; headers?: Record<string, string> };

/** Answers `body` with `status` (declared in the contract's `output.also`), and optional headers (Location). */
export function answer<T>(status: number, body: T, headers?: Record<string, string>): Answer<T> {
  return { [ANSWER]: true, status, body, ...(headers ? { headers } : {}) };
}

/**
 * What a handler returns for its contract's output: the schema's type (or an `answer()`), or a Response for a raw
 * output. Without an output the route answers 204 whatever the handler returns (a verb's result is dropped).
 */
export type RouteResult<Out> = Out extends RawOutput
  ? Response
  : Out extends JsonOutput<infer S>
    ? z.output<S> | Answer<z.output<S>> | JsonBody
    : unknown;

function isAnswer(value: unknown): value is Answer<unknown> {
  return typeof value === "object" && value !== null && ANSWER in value;
}

function responsesOf(output: RouteOutput | undefined) {
  if (!output) return { 204: noContent };
  if ("raw" in output) {
    return Object.fromEntries(
      Object.entries(output.raw).map(([status, { description, content }]) => [
        status,
        content
          ? { description, content: Object.fromEntries(Object.entries(content).map(([m, schema]) => [m, { schema }])) }
          : { description },
      ]),
    );
  }
  return {
    [output.status ?? 200]: jsonContent(output.schema, output.description),
    ...Object.fromEntries(
      Object.entries(output.also ?? {}).map(([status, text]) => [status, jsonContent(output.schema, text)]),
    ),
  };
}

/** The OpenAPI route of a contract (validation of every declared input included). */
export function openApiRoute(
  contract: RouteContract<Schema | undefined, Schema | undefined, Schema | undefined, RouteOutput | undefined>,
) {
  const problems = Object.fromEntries(
    Object.entries(contract.problems ?? {}).map(([status, text]) => [status, problemDoc(text)]),
  );
  const body = contract.body
    ? { required: !contract.bodyOptional, content: { "application/json": { schema: contract.body } } }
    : contract.rawBody
      ? {
          required: true,
          content: Object.fromEntries(Object.entries(contract.rawBody).map(([m, s]) => [m, { schema: s }])),
        }
      : undefined;
  const etagHeader = {
    ETag: { description: "The object's entity tag: its revision in quotes", schema: { type: "string" } },
  };
  const responses: Record<string, unknown> = {
    ...responsesOf(contract.output),
    ...(contract.commonProblems === false ? {} : problemResponses),
    ...problems,
  };
  if (contract.etag || contract.ifMatch) {
    const ok = String((contract.output && !("raw" in contract.output) && contract.output.status) || 200);
    if (responses[ok] && ok !== "204") responses[ok] = { ...(responses[ok] as object), headers: etagHeader };
  }
  if (contract.ifMatch) {
    responses[412] = {
      ...jsonContent(
        contract.ifMatch,
        "If-Match named an older revision: someone changed the object meanwhile. The body is the object as it is " +
          "now and the ETag its tag; merge, then send again with that tag",
      ),
      headers: etagHeader,
    };
    responses[400] = problemDoc("Malformed request (invalid JSON, or an If-Match that is not one strong tag or *)");
  }
  const headers = contract.ifMatch
    ? z.object({
        "if-match": z
          .string()
          .optional()
          .openapi({
            description:
              'The ETag of the object as the caller last read it (e.g. "42"): the write happens only if the object ' +
              "is still at that revision, else 412. * or no header: the write happens whatever the revision",
          }),
      })
    : undefined;
  return createRoute({
    method: contract.method,
    path: contract.path,
    operationId: contract.operationId,
    tags: contract.tags,
    ...(contract.description ? { description: contract.description } : {}),
    ...(contract.public ? { security: [] } : {}),
    request: {
      ...(contract.params ? { params: contract.params as z.ZodObject } : {}),
      ...(contract.query ? { query: contract.query as z.ZodObject } : {}),
      ...(body ? { body: body as never } : {}),
      ...(headers ? { headers } : {}),
    },
    responses: responses as never,
  });
}

/** The statuses a JSON contract may answer with. */
function statusesOf(output: JsonOutput): Set<number> {
  return new Set([output.status ?? 200, ...Object.keys(output.also ?? {}).map(Number)]);
}

/**
 * Registers a contract on an app: validates the input (422 naming each field through the app's defaultHook), runs
 * the handler with it and answers its result: JSON with the contract's status (or the declared one an `answer()`
 * picks), the handler's own Response for a raw output, 204 without an output.
 */
export function registerRoute<
  E extends Env,
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  Out extends RouteOutput | undefined = undefined,
>(
  app: OpenAPIHono<E>,
  contract: RouteContract<P, Q, B, Out>,
  handler: (c: Context<E>, input: RouteInput<P, Q, B>) => Promise<RouteResult<Out>> | RouteResult<Out>,
): void {
  const route = openApiRoute(contract);
  const output: RouteOutput | undefined = contract.output;
  const json = output && !("raw" in output) ? output : undefined;
  const statuses = json ? statusesOf(json) : new Set<number>();
  const where = `${contract.method.toUpperCase()} ${contract.path}`;
  // The route's typed response union is checked by the contract above; the handler is registered untyped here.
  const open = app.openapi as (r: typeof route, h: (c: Context<E>) => Promise<Response>) => void;
  open.call(app, route, async (c) => {
    const valid = (c.req.valid as (target: string) => unknown).bind(c.req);
    const input = {
      params: contract.params ? valid("param") : undefined,
      query: contract.query ? valid("query") : undefined,
      body: contract.body ? bodyOf(c, contract.body, contract.bodyOptional, valid) : undefined,
      ...(contract.ifMatch ? { expectedRevision: expectedRevisionOf(c.req.header("if-match")) } : {}),
    } as RouteInput<P, Q, B>;
    const result: unknown = await handler(c, input);
    if (!output) return c.body(null, 204);
    const revision = (isAnswer(result) ? result.body : result) as { revision?: unknown } | null;
    if ((contract.etag || contract.ifMatch) && typeof revision?.revision === "number") {
      c.header("ETag", etagOf(revision.revision));
    }
    if (!json) {
      if (!(result instanceof Response)) throw new Error(`${where} declares a raw output but did not build a Response`);
      return result;
    }
    if (result instanceof JsonBody) {
      // The same header c.json() writes.
      c.header("Content-Type", "application/json");
      return c.body(result.body as string, (json.status ?? 200) as SuccessStatus);
    }
    if (!isAnswer(result)) return c.json(result as object, (json.status ?? 200) as SuccessStatus);
    if (!statuses.has(result.status)) throw new Error(`${where} answered ${result.status}, which it does not declare`);
    for (const [name, value] of Object.entries(result.headers ?? {})) c.header(name, value);
    return c.json(result.body as object, result.status as SuccessStatus);
  });
}

function bodyOf(c: Context, schema: Schema, optional: boolean | undefined, valid: (target: string) => unknown) {
  if (optional && !c.req.header("content-type")?.includes("json")) return schema.parse({});
  return valid("json");
}
