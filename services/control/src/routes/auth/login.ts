import { AppError } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { clientIp } from "../../auth/client-ip.ts";
import { burnPasswordCheck, verifyPassword } from "../../auth/passwords.ts";
import { startLocalSession } from "../../auth/session.ts";
import { findLocalCredential, identityOf, normalizeUsername } from "../../auth/users.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonBody, jsonResponse, problemResponses } from "../../http/openapi.ts";
import { SignedIn, toCurrentIdentity } from "./schemas.ts";

const LoginInput = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1024),
});

const route = createRoute({
  method: "post",
  path: "/api/auth/local/login",
  operationId: "localLogin",
  tags: ["auth"],
  request: { body: jsonBody(LoginInput) },
  responses: {
    200: jsonResponse(SignedIn, "Signed in; access_token, refresh_token and auth_provider cookies set"),
    401: problemResponses[401],
    422: problemResponses[422],
    429: { description: "Too many failed attempts; see Retry-After" },
  },
});

export const registerLogin = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const input = c.req.valid("json");
    const username = normalizeUsername(input.username);
    const attempt = await ctx.limiter.begin({ username, ip: clientIp(c, ctx.env.TRUST_PROXY_HOPS) });
    const found = await findLocalCredential(ctx.database.db, username);
    if (!found) {
      await burnPasswordCheck(input.password);
      throw invalidCredentials();
    }
    if (!(await verifyPassword(found.passwordHash, input.password))) throw invalidCredentials();
    await attempt.succeeded();
    const identity = identityOf(found.user);
    await startLocalSession(c, ctx, identity);
    return c.json({ ...toCurrentIdentity(identity), must_change_password: identity.mustChangePassword }, 200);
  });

const invalidCredentials = () => new AppError("UNAUTHENTICATED", "Invalid username or password");
