import { z } from "@hono/zod-openapi";

export const InvitationParams = z.object({ id: z.string().min(1), invitationId: z.string().min(1) });
export const TokenParam = z.object({ token: z.string().min(1).max(200) });
