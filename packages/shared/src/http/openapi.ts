import { z } from "@hono/zod-openapi";

/** The problem body every error answers with (RFC 9457), as documented in the OpenAPI document. */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi("Problem");

export const problemDoc = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});

/** The refusals any route may answer; a route adds or rewords its own (409, 429) through its contract. */
export const problemResponses = {
  400: problemDoc("Malformed request (e.g. invalid JSON)"),
  401: problemDoc("Not authenticated"),
  403: problemDoc("Role does not allow this, or the organization is suspended"),
  404: problemDoc("Not found (or not visible to the caller)"),
  409: problemDoc("Conflict with the current state"),
  413: problemDoc("Request body too large"),
  422: problemDoc("Validation failed; `errors` lists the fields"),
};

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const noContent = { description: "Done" };

/** Path parameter `id` (an identifier of at most 200 characters). */
export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "id", in: "path" } }),
});
