import type { Database } from "@ams/db";
import type { Logger } from "@ams/shared";
import { recordAuditEvent } from "../audit/record.ts";
import type { BackgroundQueue } from "../mail/background.ts";
import type { Mailer } from "../mail/mailer.ts";
import { composePasswordResetEmail, resetPageUrl } from "../mail/password-reset-email.ts";
import { RESET_LINK_MINUTES } from "../password-reset/limits.ts";
import { countResetForAccount, findResettableAccount } from "../password-reset/request.ts";

/** What better-auth's reset flow needs from the service: the mailer, the queue after the answer, the cache. */
export type SessionMail = {
  mailer: Mailer;
  background: BackgroundQueue;
  log: Logger;
  clock: () => Date;
  /** Forgets this process's cached lookups of the user's sessions (a reset has deleted them). */
  forgetUser(userId: string): void;
};

/** The client address of a reset, as the /auth/reset-password route determined it, for the audit record. */
export const CLIENT_ADDRESS_HEADER = "x-ams-client-address";

/** better-auth's reset identifiers are `reset-password:<token>`; only their SHA-256 is stored (verifications). */
export const RESET_IDENTIFIER_PREFIX = "reset-password:";

/**
 * better-auth's "forgot password" in the product's terms: links valid RESET_LINK_MINUTES, sent by our mailer to
 * our reset page (the token in the fragment, not better-auth's redirecting callback URL) and only for an account
 * with a local password that is not banned, under the per-account limit; a reset ends every session of the user.
 * The e-mail is queued (the request was answered before: session/routes.ts runs requestPasswordReset after the
 * answer, so its timing says nothing either).
 */
export function passwordResetOptions(publicUrl: string, database: Database, mail: SessionMail) {
  return {
    resetPasswordTokenExpiresIn: RESET_LINK_MINUTES * 60,
    revokeSessionsOnPasswordReset: true,
    async sendResetPassword({ user, token }: { user: { id: string; email: string }; token: string }) {
      const services = { database, clock: mail.clock };
      const account = await findResettableAccount(services, user.email.toLowerCase());
      if (!account || account.id !== user.id || !(await countResetForAccount(services, account.id))) return;
      await mail.mailer.send(
        composePasswordResetEmail({
          to: account.email,
          name: account.name,
          username: account.username,
          resetUrl: resetPageUrl(publicUrl, token),
          validMinutes: RESET_LINK_MINUTES,
        }),
      );
    },
    async onPasswordReset({ user }: { user: { id: string; username?: string | null } }, request?: Request) {
      mail.forgetUser(user.id);
      const subject = { id: user.id, name: user.username ?? user.id };
      await recordAuditEvent(database.db, {
        kind: "password.reset",
        actor: subject,
        target: subject,
        address: request?.headers.get(CLIENT_ADDRESS_HEADER) ?? null,
        details: { via: "e-mailed link" },
      });
    },
  };
}
