import { users } from "@ams/db";
import { AppError } from "@ams/shared";
import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { renewAccessCookie } from "../../auth/session.ts";
import { identityOf } from "../../auth/users.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { noContent, problemResponses } from "../../http/openapi.ts";

const route = createRoute({
  method: "post",
  path: "/api/auth/change-password/skip",
  operationId: "skipPasswordChange",
  tags: ["auth"],
  responses: { 204: noContent, 401: problemResponses[401], 403: problemResponses[403] },
});

/** "Skip" on the forced change: clears mustChangePassword and reissues the access token without the claim. */
export const registerSkipPasswordChange = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const principal = c.var.access.principal!;
    if (principal.provider !== "local") {
      throw new AppError("FORBIDDEN", "The password of this account is managed by the identity provider");
    }
    const [user] = await ctx.database.db
      .update(users)
      .set({ mustChangePassword: false, updatedAt: ctx.clock() })
      .where(eq(users.id, principal.userId))
      .returning();
    if (!user) throw new AppError("UNAUTHENTICATED", "The account no longer exists");
    await renewAccessCookie(c, ctx, identityOf(user));
    return c.body(null, 204);
  });
