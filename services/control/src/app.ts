import { assertStorableText } from "@ams/shared";
import { OpenAPIHono } from "@hono/zod-openapi";
import { createControlContext } from "./context.ts";
import type { ControlDeps } from "./deps.ts";
import { createGateway } from "./gateway/middleware.ts";
import type { AppEnv } from "./http/app-env.ts";
import { problemFromZod, problemResponse } from "./http/problem.ts";
import { registerApiTokenRoutes } from "./routes/api-tokens/index.ts";
import { registerAuthRoutes } from "./routes/auth/index.ts";
import { registerDocsRoutes } from "./routes/docs/docs.ts";
import { createOpenApiDocument } from "./routes/docs/openapi.ts";
import { registerHealthRoute } from "./routes/health/get.ts";
import { registerInvitationRoutes } from "./routes/invitations/index.ts";
import { registerMeRoute } from "./routes/me/get.ts";
import { registerMemberRoutes } from "./routes/members/index.ts";
import { registerMessageRoutes } from "./routes/messages/index.ts";
import { registerOrganizationRoutes } from "./routes/organizations/index.ts";
import { registerPlatformRoutes } from "./routes/platform/index.ts";
import { registerSsoRoutes } from "./routes/sso/index.ts";

/**
 * The control service: sign-in, organizations, members, API tokens, platform admin, messages, health, and THE
 * authorization gateway in front of tenant and mcp. Every /api and /mcp request passes the gateway first.
 */
export function createControlApp(deps: ControlDeps) {
  const ctx = createControlContext(deps);
  const app = new OpenAPIHono<AppEnv>({ defaultHook: problemFromZod });
  app.onError((err) => problemResponse(err, ctx.log));
  const publicHttps = new URL(deps.env.PUBLIC_URL).protocol === "https:";
  app.use("*", async (c, next) => {
    c.set("publicHttps", publicHttps);
    await next();
  });
  // PostgreSQL cannot store NUL in text: refuse it up front with a 422 naming the field (URL and JSON bodies).
  app.use("/api/*", async (c, next) => {
    await assertStorableText(c.req.raw);
    await next();
  });
  app.use("*", createGateway(ctx));
  registerHealthRoute(app, ctx);
  registerAuthRoutes(app, ctx);
  registerSsoRoutes(app, ctx, deps.sso);
  registerMeRoute(app, ctx);
  registerOrganizationRoutes(app, ctx);
  registerMemberRoutes(app, ctx);
  registerInvitationRoutes(app, ctx, deps);
  registerApiTokenRoutes(app, ctx);
  registerPlatformRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerDocsRoutes(app, createOpenApiDocument(app, ctx.upstreams.tenant));
  return app;
}

export type ControlApp = ReturnType<typeof createControlApp>;
