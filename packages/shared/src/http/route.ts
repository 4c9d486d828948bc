import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Context, Env } from "hono";
import { jsonContent, noContent, problemDoc, problemResponses } from "./openapi.ts";

type Schema = z.ZodType;
type Infer<S> = S extends Schema ? z.output<S> : undefined;

/**
 * What a route declares, and all it declares: method, path, input (path parameters, query, JSON body) and output.
 * Without `output` the route answers 204. Both services' route files are lists of these.
 */
export type RouteContract<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  O,
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
  /** The answer's schema, status (200 by default) and description; absent: 204 No Content. */
  output?: { schema: Schema & { _output: O }; status?: 200 | 201 | 202; description: string };
  /** Refusals this route words itself, e.g. { 409: "The last owner cannot be removed" }. */
  problems?: Record<number, string>;
};

/** The validated input of one request, as the contract declared it. */
export type RouteInput<P, Q, B> = { params: Infer<P>; query: Infer<Q>; body: Infer<B> };

/** The OpenAPI route of a contract (validation of every declared input included). */
export function openApiRoute(
  contract: RouteContract<Schema | undefined, Schema | undefined, Schema | undefined, unknown>,
) {
  const { output } = contract;
  const problems = Object.fromEntries(
    Object.entries(contract.problems ?? {}).map(([status, text]) => [status, problemDoc(text)]),
  );
  return createRoute({
    method: contract.method,
    path: contract.path,
    operationId: contract.operationId,
    tags: contract.tags,
    ...(contract.description ? { description: contract.description } : {}),
    request: {
      ...(contract.params ? { params: contract.params as z.ZodObject } : {}),
      ...(contract.query ? { query: contract.query as z.ZodObject } : {}),
      ...(contract.body
        ? { body: { required: !contract.bodyOptional, content: { "application/json": { schema: contract.body } } } }
        : {}),
    },
    responses: {
      ...(output ? { [output.status ?? 200]: jsonContent(output.schema, output.description) } : { 204: noContent }),
      ...problemResponses,
      ...problems,
    },
  });
}

/**
 * Registers a contract on an app: validates the input (422 naming each field through the app's defaultHook), runs
 * the handler with it, answers its result as JSON with the contract's status, or 204 without an output.
 */
export function registerRoute<
  E extends Env,
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  O,
>(
  app: OpenAPIHono<E>,
  contract: RouteContract<P, Q, B, O>,
  handler: (c: Context<E>, input: RouteInput<P, Q, B>) => Promise<O> | O,
): void {
  const route = openApiRoute(contract);
  const status = contract.output?.status ?? 200;
  // The route's typed response union is checked by the contract above; the handler is registered untyped here.
  const open = app.openapi as (r: typeof route, h: (c: Context<E>) => Promise<Response>) => void;
  open.call(app, route, async (c) => {
    const valid = (c.req.valid as (target: string) => unknown).bind(c.req);
    const input = {
      params: contract.params ? valid("param") : undefined,
      query: contract.query ? valid("query") : undefined,
      body: contract.body ? bodyOf(c, contract.body, contract.bodyOptional, valid) : undefined,
    } as RouteInput<P, Q, B>;
    const result = await handler(c, input);
    return contract.output ? c.json(result as object, status) : c.body(null, 204);
  });
}

function bodyOf(c: Context, schema: Schema, optional: boolean | undefined, valid: (target: string) => unknown) {
  if (optional && !c.req.header("content-type")?.includes("json")) return schema.parse({});
  return valid("json");
}
