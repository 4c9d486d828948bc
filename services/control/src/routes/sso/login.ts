import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import type { SsoRuntime } from "../../sso/runtime.ts";
import { safeRedirectPath } from "../../sso/safe-redirect.ts";
import { startSignIn } from "../../sso/sign-in.ts";

/** Starts the browser sign-in; `from` must be a path of this site (anything else returns to /). */
export const registerSsoLogin = (app: App, sso: SsoRuntime | undefined) =>
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/auth/login",
      operationId: "startSignIn",
      tags: ["auth"],
      query: z.object({ from: z.string().max(2000).optional() }),
      output: {
        raw: {
          302: {
            description:
              "With SSO: to the identity provider (pkce_verifier, oidc_state and auth_redirect cookies set for 5 minutes). " +
              "Without: to the local sign-in page /login?from=<path>.",
          },
        },
      },
      commonProblems: false,
      problems: { 503: "The identity provider is unavailable" },
    },
    async (c, { query: { from } }) => {
      if (sso) return startSignIn(c, sso, from);
      const path = safeRedirectPath(from);
      return c.redirect(path === "/" ? "/login" : `/login?from=${encodeURIComponent(path)}`, 302);
    },
  );
