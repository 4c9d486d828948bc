import type { Context } from "hono";
import type { ControlContext } from "../context.ts";

/**
 * Refresh and logout are dispatched by the auth_provider cookie. "local" is built in; the SSO flow registers
 * "oidc" (refresh through the provider's token endpoint, logout through its end-session endpoint).
 */
export type SessionProvider = {
  /** 204 with new cookies, or 401 with cleared cookies. */
  refresh(c: Context, ctx: ControlContext): Promise<Response>;
  /** Ends the session, clears the cookies and redirects (to /login, or via the provider's end-session). */
  logout(c: Context, ctx: ControlContext): Promise<Response>;
};
