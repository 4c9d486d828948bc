import { siteMessages } from "@ams/db";
import { createRoute } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonBody, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { readSiteMessages } from "./read.ts";
import { MessageKinds, SiteMessages, UpdateSiteMessages } from "./schemas.ts";

const route = createRoute({
  method: "put",
  path: "/api/settings/messages",
  operationId: "updateSiteMessages",
  tags: ["settings"],
  request: { body: jsonBody(UpdateSiteMessages) },
  responses: { 200: jsonResponse(SiteMessages, "Updated"), ...problemResponses },
});

/** Admin only (checked by the gateway); a message left out of the body is unchanged. */
export const registerUpdateMessages = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const now = ctx.clock();
    const updatedBy = c.var.access.principal!.userId;
    await ctx.database.db.transaction(async (tx) => {
      for (const kind of MessageKinds) {
        const message = input[kind];
        if (!message) continue;
        await tx
          .insert(siteMessages)
          .values({ kind, ...message, updatedAt: now, updatedBy })
          .onConflictDoUpdate({ target: siteMessages.kind, set: { ...message, updatedAt: now, updatedBy } });
      }
    });
    return c.json(await readSiteMessages(ctx.database), 200);
  });
