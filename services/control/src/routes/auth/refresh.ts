import { registerRoute } from "@ams/shared/http";
import { readProviderCookie } from "../../auth/cookies.ts";
import { sessionProviderFor } from "../../auth/local-session-provider.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";

/** Rotates the refresh token; a token rotated before is a reuse and ends every session of its user. */
export const registerRefresh = (app: App, ctx: ControlContext) =>
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/auth/refresh",
      operationId: "refreshSession",
      tags: ["auth"],
      output: { raw: { 204: { description: "New access and refresh cookies set" } } },
      commonProblems: false,
      problems: { 401: "Not authenticated" },
    },
    (c) => sessionProviderFor(ctx, readProviderCookie(c)).refresh(c, ctx),
  );
