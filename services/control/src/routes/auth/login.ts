import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { clientIp } from "../../auth/client-ip.ts";
import { burnPasswordCheck, verifyPassword } from "../../auth/passwords.ts";
import { startLocalSession } from "../../auth/session.ts";
import { findLocalCredential, identityOf, normalizeUsername } from "../../auth/users.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { SignedIn, toCurrentIdentity } from "./schemas.ts";

const LoginInput = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1024),
});

export const registerLogin = (app: App, ctx: ControlContext) =>
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/auth/local/login",
      operationId: "localLogin",
      tags: ["auth"],
      body: LoginInput,
      output: {
        schema: SignedIn,
        description: "Signed in; access_token, refresh_token and auth_provider cookies set",
      },
      commonProblems: false,
      problems: {
        401: "Not authenticated",
        422: "Validation failed; `errors` lists the fields",
        429: "Too many failed attempts; see Retry-After",
      },
    },
    async (c, { body: input }) => {
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
      return { ...toCurrentIdentity(identity), must_change_password: identity.mustChangePassword };
    },
  );

const invalidCredentials = () => new AppError("UNAUTHENTICATED", "Invalid username or password");
