import { z } from "@hono/zod-openapi";

/** Small helpers so each route declares its contract in a few lines. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

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

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});

export const problemResponses = {
  401: problem("Not signed in"),
  403: problem("Forbidden"),
  404: problem("Not found"),
  422: problem("Validation failed"),
};

export const noContent = { description: "Done" };

export const IdParam = z.object({ id: z.string().min(1) });
export const MemberParams = z.object({ id: z.string().min(1), userId: z.string().min(1) });
