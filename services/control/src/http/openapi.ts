import { z } from "@hono/zod-openapi";

/** Control's path parameters; the rest of a route's contract comes from registerRoute (@ams/shared/http). */
export const IdParam = z.object({ id: z.string().min(1) });
export const MemberParams = z.object({ id: z.string().min(1), userId: z.string().min(1) });
