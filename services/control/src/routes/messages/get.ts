import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonResponse } from "../../http/openapi.ts";
import { readSiteMessages } from "./read.ts";
import { SiteMessages } from "./schemas.ts";

const route = createRoute({
  method: "get",
  path: "/api/settings/messages",
  operationId: "getSiteMessages",
  tags: ["settings"],
  responses: { 200: jsonResponse(SiteMessages, "Login and banner messages (public)") },
});

export const registerGetMessages = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => c.json(await readSiteMessages(ctx.database), 200));
