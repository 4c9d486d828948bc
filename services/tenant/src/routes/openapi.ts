import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { TenantEnv } from "../middleware/service-auth.ts";

export type TenantApp = OpenAPIHono<TenantEnv>;

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi("Problem");

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});

export const problemResponses = {
  400: problem("Malformed request (e.g. invalid JSON)"),
  401: problem("Not authenticated"),
  403: problem("Role does not allow this, or the organization is suspended"),
  404: problem("Not found (or not visible to the caller)"),
  409: problem("Conflict with the current state"),
  413: problem("Request body too large"),
  422: problem("Validation failed; `errors` lists the fields"),
};

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});
export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
export const noContent = { description: "Done" };
export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "id", in: "path" } }),
});
