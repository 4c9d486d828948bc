import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";

/** POST /api/auth/local/forgot-password (and the session profile's /auth/request-password-reset). */
export const ForgotPasswordInput = z.object({
  email: z.string().trim().max(254).pipe(z.email()).openapi({ description: "The account's e-mail address" }),
});
export type ForgotPasswordInput = z.infer<typeof ForgotPasswordInput>;

export const ForgotPasswordAnswer = z
  .object({ status: z.literal(true), message: z.string() })
  .openapi("ForgotPasswordAnswer");

/** POST /api/auth/local/reset-password: the token of the mailed link and the new password (the change policy). */
export const ResetPasswordInput = z.object({
  token: z.string().min(1).max(200),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;

export const FORGOT_PASSWORD_MESSAGE = "If an account uses this address, a link to set a new password is on its way";
