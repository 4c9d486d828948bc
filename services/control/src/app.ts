import {
  accessLog,
  httpMetrics,
  onErrorProblem,
  problemFromZod,
  refuseUnstorableText,
  requestId,
} from "@ams/shared/http";
import { OpenAPIHono } from "@hono/zod-openapi";
import { createControlContext } from "./create-context.ts";
import type { ControlDeps } from "./deps.ts";
import { createGateway } from "./gateway/middleware.ts";
import type { AppEnv } from "./http/app-env.ts";
import { limitRequestBodies } from "./http/body-limits.ts";
import { HSTS, setHeader } from "./http/headers.ts";
import { registerControlRoutes } from "./http/route.ts";
import { registerLiveMetrics } from "./live/metrics.ts";
import { liveRoutes } from "./live/routes.ts";
import { registerOAuthRoutes } from "./oauth/index.ts";
import { apiTokenRoutes } from "./routes/api-tokens/index.ts";
import { accountRoutes, localPasswordResetRoutes, registerSessionRoutes } from "./routes/auth/index.ts";
import { registerDocsRoutes } from "./routes/docs/docs.ts";
import { createOpenApiDocument } from "./routes/docs/openapi.ts";
import { registerHealthRoute } from "./routes/health/get.ts";
import { invitationRoutes } from "./routes/invitations/index.ts";
import { getProfileRoute } from "./routes/me/get.ts";
import { memberRoutes } from "./routes/members/index.ts";
import { messageRoutes } from "./routes/messages/index.ts";
import { organizationRoutes } from "./routes/organizations/index.ts";
import { platformRoutes } from "./routes/platform/index.ts";
import { registerSsoRoutes } from "./routes/sso/index.ts";
import { teamRoutes } from "./routes/teams/index.ts";
import { localTwoFactorRoutes, twoFactorRoutes } from "./routes/two-factor/index.ts";
import { registerWebRoutes } from "./routes/web/static.ts";
import { registerSessionAuthRoutes } from "./session/routes.ts";

/**
 * The control service: sign-in, organizations, members, API tokens, platform admin, messages, health, and THE
 * authorization gateway in front of tenant and mcp. Every /api and /mcp request passes the gateway first.
 */
export function createControlApp(deps: ControlDeps) {
  const ctx = createControlContext(deps);
  const app = new OpenAPIHono<AppEnv>({ defaultHook: problemFromZod });
  app.onError(onErrorProblem(ctx.log));
  app.use("*", requestId());
  app.use("*", accessLog(ctx.log, { organizationOf: (c) => c.var.access?.organizationId }));
  if (deps.metrics) {
    app.use("*", httpMetrics(deps.metrics));
    registerLiveMetrics(deps.metrics, ctx.live);
  }
  const publicHttps = new URL(deps.env.PUBLIC_URL).protocol === "https:";
  app.use("*", async (c, next) => {
    c.set("publicHttps", publicHttps);
    await next();
    // Served over https: browsers keep to https for a year (HSTS), so no later visit starts in clear.
    if (publicHttps) setHeader(c, "strict-transport-security", HSTS);
  });
  // Before anything reads a body (authentication, sign-in, better-auth, the OAuth token endpoint): an anonymous
  // caller cannot make control hold more than the JSON limit. The NUL check reads bodies, so it runs after the
  // gateway has authenticated and authorized (forwarded requests get tenant's own).
  app.use(
    "*",
    limitRequestBodies({
      jsonBytes: deps.env.JSON_BODY_LIMIT_KB * 1024,
      uploadBytes: deps.env.UPLOAD_LIMIT_MB * 1024 * 1024,
    }),
  );
  app.use("*", createGateway(ctx));
  app.use("/api/*", refuseUnstorableText());
  registerHealthRoute(app, ctx);
  if (ctx.session) {
    registerSessionAuthRoutes(app, ctx);
  } else {
    registerSessionRoutes(app, ctx);
    registerSsoRoutes(app, ctx, deps.sso);
  }
  // Every other control route is a contract and one verb call (src/verbs).
  registerControlRoutes(app, ctx, [
    ...accountRoutes,
    ...twoFactorRoutes,
    ...localTwoFactorRoutes,
    ...(ctx.session ? [] : localPasswordResetRoutes),
    getProfileRoute,
    ...organizationRoutes,
    ...memberRoutes,
    // Teams exist in the session profile only (the gateway's table knows them there alone).
    ...(ctx.session ? teamRoutes : []),
    ...invitationRoutes,
    ...apiTokenRoutes,
    ...platformRoutes,
    ...messageRoutes,
    ...liveRoutes,
  ]);
  registerDocsRoutes(app, createOpenApiDocument(app, ctx.upstreams.tenant));
  registerOAuthRoutes(app, ctx);
  if (deps.webDir) registerWebRoutes(app, deps.webDir);
  return app;
}

export type ControlApp = ReturnType<typeof createControlApp>;
