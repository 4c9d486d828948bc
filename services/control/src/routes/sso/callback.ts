import { registerRoute } from "@ams/shared/http";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import type { SsoRuntime } from "../../sso/runtime.ts";
import { completeSignIn } from "../../sso/sign-in.ts";

/** Completes the browser sign-in (the provider redirects here with code and state). */
export const registerSsoCallback = (app: App, ctx: ControlContext, sso: SsoRuntime | undefined) =>
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/auth/callback",
      operationId: "completeSignIn",
      tags: ["auth"],
      output: {
        raw: {
          302: {
            description:
              "Signed in: access_token, refresh_token, id_token and auth_provider cookies set, back to the saved path. " +
              "Refused (state mismatch, rejected code, token that does not verify): to /login?error=<code>.",
          },
        },
      },
      commonProblems: false,
      problems: { 503: "The identity provider is unavailable" },
    },
    async (c) => (sso ? completeSignIn(c, ctx, sso) : c.redirect("/login", 302)),
  );
