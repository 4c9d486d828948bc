import { AppError } from "@ams/shared";
import type { Context } from "hono";
import type { UserRow } from "../auth/users.ts";
import type { ControlContext } from "../context.ts";

/**
 * Signs a just-created account in through better-auth (session profile): its username sign-in on the server, whose
 * session cookie this answer sets. The password was set a moment ago in the same request.
 */
export async function signInNewAccount(c: Context, ctx: ControlContext, user: UserRow, password: string) {
  const session = ctx.session;
  if (!session) throw new Error("signInNewAccount needs AUTH_MODE=session");
  const { headers } = await session.auth.api.signInUsername({
    body: { username: user.username, password },
    headers: c.req.raw.headers,
    returnHeaders: true,
  });
  const cookies = headers.getSetCookie();
  if (cookies.length === 0) throw new AppError("INTERNAL", "The new account could not be signed in");
  for (const line of cookies) c.header("set-cookie", line, { append: true });
}
