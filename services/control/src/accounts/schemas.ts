import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";

/** GET /api/me: the profile, memberships and active choice of the caller. */
export const Profile = z
  .object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    email_verified: z.boolean(),
    role: z.enum(["platform_admin", "user"]),
    must_change_password: z.boolean(),
    two_factor_enabled: z.boolean(),
    auth_provider: z.string(),
    memberships: z.array(
      z.object({
        organization_id: z.string(),
        organization_slug: z.string(),
        organization_name: z.string(),
        role: z.string(),
        enabled: z.boolean(),
        /** Members must use two-factor here (without it the browser session gets 403 TWO_FACTOR_REQUIRED). */
        requires_two_factor: z.boolean(),
      }),
    ),
    active_organization_id: z.string().nullable(),
    active_workspace_id: z.string().nullable(),
    /** Set when the caller authenticated with a personal API token: its scope. */
    api_token: z
      .object({ id: z.string(), organization_id: z.string(), workspace_id: z.string().nullable() })
      .nullable(),
  })
  .openapi("Profile");
export type Profile = z.infer<typeof Profile>;

/** POST /api/auth/local/login: a local account's username (any case, surrounding spaces ignored) and password. */
export const SignInInput = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1024),
});
export type SignInInput = z.infer<typeof SignInInput>;

export const ChangePasswordInput = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

/** GET /api/auth/options: what the sign-in page offers. */
export const AuthOptions = z
  .object({
    profile: z.enum(["local", "session"]).describe("How browsers sign in: local accounts or the session profile"),
    sso: z.boolean().describe("Whether sign-in through the external identity provider is offered"),
    password_reset: z
      .boolean()
      .describe('Whether "Forgot password?" is offered: e-mail is configured, so a reset link can be sent'),
  })
  .openapi("AuthOptions");
export type AuthOptions = z.infer<typeof AuthOptions>;
