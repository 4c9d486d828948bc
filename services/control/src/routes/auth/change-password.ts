import { users } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { clientIp } from "../../auth/client-ip.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "../../auth/passwords.ts";
import { revokeAllSessions } from "../../auth/refresh-tokens.ts";
import { startLocalSession } from "../../auth/session.ts";
import { findLocalCredential, identityOf, setLocalPassword } from "../../auth/users.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonBody, noContent, problemResponses } from "../../http/openapi.ts";

const ChangePasswordInput = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});

const route = createRoute({
  method: "post",
  path: "/api/auth/change-password",
  operationId: "changePassword",
  tags: ["auth"],
  request: { body: jsonBody(ChangePasswordInput) },
  responses: { 204: noContent, ...problemResponses, 429: { description: "Too many failed attempts" } },
});

/**
 * Changes the local password. The current password is checked under the same failure limit as sign-in; on
 * success every session of the user ends and this browser gets a fresh one (without must_change_password).
 */
export const registerChangePassword = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const principal = c.var.access.principal!;
    const input = c.req.valid("json");
    if (principal.provider !== "local") {
      throw new AppError("FORBIDDEN", "The password of this account is managed by the identity provider");
    }
    const attempt = await ctx.limiter.begin({
      username: principal.username,
      ip: clientIp(c, ctx.env.TRUST_PROXY_HOPS),
    });
    const found = await findLocalCredential(ctx.database.db, principal.username);
    if (!found || found.user.id !== principal.userId) {
      throw new AppError("FORBIDDEN", "This account has no local password");
    }
    if (!(await verifyPassword(found.passwordHash, input.current_password))) {
      throw invalid("current_password", "does not match");
    }
    await attempt.succeeded();
    if (input.new_password === input.current_password) {
      throw invalid("new_password", "must differ from the current password");
    }
    const now = ctx.clock();
    const passwordHash = await hashPassword(input.new_password);
    const user = await ctx.database.db.transaction(async (tx) => {
      await setLocalPassword(tx, principal.userId, passwordHash, now);
      const [row] = await tx
        .update(users)
        .set({ mustChangePassword: false, updatedAt: now })
        .where(eq(users.id, principal.userId))
        .returning();
      await revokeAllSessions(tx, principal.userId, now);
      return row;
    });
    await startLocalSession(c, ctx, identityOf(user));
    return c.body(null, 204);
  });
