import { z } from "@hono/zod-openapi";
import type { Identity } from "../../auth/principal.ts";

/** GET /api/auth/me: {id, username, name, email, role}; role is platform_admin or user. */
export const CurrentIdentity = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    role: z.enum(["platform_admin", "user"]),
  })
  .openapi("CurrentIdentity");

export const SignedIn = CurrentIdentity.extend({ must_change_password: z.boolean() }).openapi("SignedIn");

export function toCurrentIdentity(identity: Identity): z.infer<typeof CurrentIdentity> {
  return {
    id: identity.userId,
    username: identity.username,
    name: identity.name,
    email: identity.email,
    role: identity.platformAdmin ? "platform_admin" : "user",
  };
}
