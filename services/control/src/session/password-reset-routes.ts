import { AppError } from "@ams/shared";
import { limitBody, validationError } from "@ams/shared/http";
import type { Context } from "hono";
import { z } from "zod";
import { clientIp } from "../auth/client-ip.ts";
import { requireInWindow } from "../auth/rate-window.ts";
import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { LIMITS, normalizeEmail } from "../password-reset/limits.ts";
import { countResetForEmail, findResettableAccount, recordResetRequested } from "../password-reset/request.ts";
import { FORGOT_PASSWORD_MESSAGE, ForgotPasswordInput } from "../password-reset/schemas.ts";
import { SESSION_BASE_PATH } from "./better-auth.ts";
import { CLIENT_ADDRESS_HEADER } from "./password-reset.ts";

/** Both bodies are a few hundred bytes at most; anything bigger is refused before it is read. */
const SMALL_BODY = limitBody(4 * 1024);

/** better-auth's reset body, bounded: the token is its 24 characters, the password within the policy's maximum. */
const ResetBody = z.object({ token: z.string().min(1).max(200), newPassword: z.string().max(1024) });

/**
 * better-auth's reset flow behind the /auth allow-list (session/routes.ts), with the local profile's rules:
 * POST /auth/request-password-reset {email} answers 202 at once, always the same (the client address's limit
 * first, then 429), and runs better-auth's requestPasswordReset after the answer, under the address's limit,
 * so neither the answer nor its timing tells whether the address has an account. POST /auth/reset-password
 * {token, newPassword} is better-auth's own, under its client address's limit.
 */
export function registerSessionPasswordReset(app: App, ctx: ControlContext): void {
  const session = ctx.session;
  if (!session) throw new Error("registerSessionPasswordReset needs AUTH_MODE=session");
  app.post(`${SESSION_BASE_PATH}/request-password-reset`, SMALL_BODY, async (c) => {
    if (!ctx.mailConfigured) throw mailOff();
    const { email } = await bodyOf(c, ForgotPasswordInput);
    const address = normalizeEmail(email);
    const client = clientIp(c, ctx.env.TRUST_PROXY_HOPS);
    await requireInWindow(
      ctx.database.db,
      `pw-forgot-ip:${client}`,
      LIMITS.forgotPerIp,
      ctx.clock(),
      "Too many password reset requests from this address; try again later",
    );
    ctx.background.run("session password reset request", async () => {
      if (!(await countResetForEmail(ctx, address))) return;
      const account = await findResettableAccount(ctx, address);
      if (account) await recordResetRequested(ctx, account, client);
      await session.auth.api.requestPasswordReset({ body: { email: address } });
    });
    return c.json({ status: true, message: FORGOT_PASSWORD_MESSAGE }, 202);
  });
  app.post(`${SESSION_BASE_PATH}/reset-password`, SMALL_BODY, async (c) => {
    const body = await bodyOf(c, ResetBody);
    const client = clientIp(c, ctx.env.TRUST_PROXY_HOPS);
    await requireInWindow(
      ctx.database.db,
      `pw-reset-ip:${client}`,
      LIMITS.resetPerIp,
      ctx.clock(),
      "Too many password resets from this address; try again later",
    );
    const headers = new Headers(c.req.raw.headers);
    headers.delete("content-length");
    // For the audit record of the reset (password-reset.ts); set here, so a caller's own value never counts.
    headers.set(CLIENT_ADDRESS_HEADER, client);
    const url = new URL(`${SESSION_BASE_PATH}/reset-password`, new URL(c.req.url).origin);
    const request = new Request(url, { method: "POST", headers, body: JSON.stringify(body) });
    return session.auth.handler(request);
  });
}

/** The JSON body checked against `schema`: 400 when it is not JSON, 422 naming the fields when it does not fit. */
async function bodyOf<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const raw: unknown = await c.req.json().catch(() => {
    throw new AppError("BAD_REQUEST", "The body must be JSON");
  });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export const mailOff = () =>
  new AppError(
    "UNAVAILABLE",
    "E-mail is not configured on this server, so no reset link can be sent; ask an administrator",
  );
