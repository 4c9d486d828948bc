import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import type { SsoRuntime } from "../../sso/runtime.ts";
import { completeSignIn } from "../../sso/sign-in.ts";

const route = createRoute({
  method: "get",
  path: "/api/auth/callback",
  operationId: "completeSignIn",
  tags: ["auth"],
  responses: {
    302: {
      description:
        "Signed in: access_token, refresh_token, id_token and auth_provider cookies set, back to the saved path. " +
        "Refused (state mismatch, rejected code, token that does not verify): to /login?error=<code>.",
    },
    503: { description: "The identity provider is unavailable" },
  },
});

/** Completes the browser sign-in (the provider redirects here with code and state). */
export const registerSsoCallback = (app: App, ctx: ControlContext, sso: SsoRuntime | undefined) =>
  app.openapi(route, async (c) => {
    if (!sso) return c.redirect("/login", 302) as never;
    return completeSignIn(c, ctx, sso) as never;
  });
