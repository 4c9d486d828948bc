import { z } from "@hono/zod-openapi";

/** An OAuth/OIDC provider a browser can sign in with, and where that sign-in starts. */
export const SignInProvider = z
  .object({ id: z.string(), name: z.string(), sign_in_url: z.string() })
  .openapi("SignInProvider");

export const SignInProviders = z.object({ providers: z.array(SignInProvider) }).openapi("SignInProviders");

/** One of the caller's live sessions; never its token (that stays in the httpOnly cookie). */
export const SessionSummary = z
  .object({
    id: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    current: z.boolean().openapi({ description: "The session of this request" }),
  })
  .openapi("SessionSummary");

export const SessionList = z.object({ sessions: z.array(SessionSummary) }).openapi("SessionList");

export type SignInProvider = z.infer<typeof SignInProvider>;
export type SignInProviders = z.infer<typeof SignInProviders>;
export type SessionSummary = z.infer<typeof SessionSummary>;
export type SessionList = z.infer<typeof SessionList>;
