import { createRoute, z } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import type { SsoRuntime } from "../../sso/runtime.ts";
import { safeRedirectPath } from "../../sso/safe-redirect.ts";
import { startSignIn } from "../../sso/sign-in.ts";

const route = createRoute({
  method: "get",
  path: "/api/auth/login",
  operationId: "startSignIn",
  tags: ["auth"],
  request: { query: z.object({ from: z.string().max(2000).optional() }) },
  responses: {
    302: {
      description:
        "With SSO: to the identity provider (pkce_verifier, oidc_state and auth_redirect cookies set for 5 minutes). " +
        "Without: to the local sign-in page /login?from=<path>.",
    },
    503: { description: "The identity provider is unavailable" },
  },
});

/** Starts the browser sign-in; `from` must be a path of this site (anything else returns to /). */
export const registerSsoLogin = (app: App, sso: SsoRuntime | undefined) =>
  app.openapi(route, async (c) => {
    const from = c.req.valid("query").from;
    if (sso) return startSignIn(c, sso, from) as never;
    const path = safeRedirectPath(from);
    return c.redirect(path === "/" ? "/login" : `/login?from=${encodeURIComponent(path)}`, 302) as never;
  });
