import type { RateWindow } from "../auth/rate-window.ts";

/** How long a mailed reset link works (both profiles). */
export const RESET_LINK_MINUTES = 30;

const MINUTE = 60 * 1000;

/**
 * The limits of the anonymous account routes. Per client address they answer 429 with Retry-After (that says
 * nothing about any account); per e-mail address and per account a "forgot password" request over the limit is
 * answered 202 like any other and sends nothing, so the answer never tells whether the address has an account.
 */
export const LIMITS = {
  /** POST forgot-password / request-password-reset from one client address. */
  forgotPerIp: { max: 10, windowMs: 15 * MINUTE },
  /** Reset e-mails to one address (known or not). */
  forgotPerEmail: { max: 3, windowMs: 60 * MINUTE },
  /** Reset e-mails to one account, whatever address it was asked for under. */
  forgotPerAccount: { max: 5, windowMs: 24 * 60 * MINUTE },
  /** POST reset-password from one client address (tokens are 256-bit: this only bounds the work). */
  resetPerIp: { max: 10, windowMs: 15 * MINUTE },
  /** POST /api/invitations/:token/register from one client address. */
  registerPerIp: { max: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, RateWindow>;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
