import { accounts, type Database, users } from "@ams/db";
import { and, eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record.ts";
import { countInWindow } from "../auth/rate-window.ts";
import { CREDENTIAL_PROVIDER } from "../auth/users.ts";
import type { ControlEnv } from "../env.ts";
import type { InvitationServices } from "../invitations/services.ts";
import { composePasswordResetEmail, resetPageUrl } from "../mail/password-reset-email.ts";
import { LIMITS, RESET_LINK_MINUTES } from "./limits.ts";
import { issueResetToken } from "./tokens.ts";

/**
 * The services this module uses, named here rather than picked from ControlContext: the session profile's
 * better-auth set-up imports this module, and context.ts imports that set-up's type (an import cycle otherwise).
 */
type WithDatabase = { database: Database };
type Services = WithDatabase & { clock: () => Date; env: ControlEnv; invitations: InvitationServices };

/** The account a reset link may be mailed for: a local password (credential), not banned. */
export async function findResettableAccount(services: WithDatabase, email: string) {
  const [row] = await services.database.db
    .select({ id: users.id, username: users.username, name: users.name, email: users.email, banned: users.banned })
    .from(users)
    .innerJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, CREDENTIAL_PROVIDER)))
    .where(eq(users.email, email));
  return row && !row.banned ? row : null;
}

type Counted = WithDatabase & { clock: () => Date };

/** The audit trail's record of a link mailed to an account (nothing is recorded for an address without one). */
export function recordResetRequested(
  services: WithDatabase,
  account: { id: string; username: string },
  address: string | null,
): Promise<void> {
  const subject = { id: account.id, name: account.username };
  return recordAuditEvent(services.database.db, {
    kind: "password.reset_requested",
    actor: null,
    target: subject,
    address,
  });
}

/** Counts a reset e-mail to the address (known or not); false when it is over its limit: nothing is sent. */
export async function countResetForEmail(services: Counted, email: string): Promise<boolean> {
  const key = `pw-reset-email:${email}`;
  return (await countInWindow(services.database.db, key, LIMITS.forgotPerEmail, services.clock())).allowed;
}

/** Counts a reset e-mail to the account; false when it is over its limit: nothing is sent. */
export async function countResetForAccount(services: Counted, userId: string): Promise<boolean> {
  const key = `pw-reset-user:${userId}`;
  return (await countInWindow(services.database.db, key, LIMITS.forgotPerAccount, services.clock())).allowed;
}

/**
 * The local profile's "forgot password", after the 202 has gone out: the address's limit, then (for a local
 * account) the account's limit, a new one-time token and the e-mail. An address without an account ends here
 * quietly; the caller saw the same answer either way.
 */
export async function mailLocalResetLink(services: Services, email: string, address: string | null): Promise<void> {
  if (!(await countResetForEmail(services, email))) return;
  const account = await findResettableAccount(services, email);
  if (!account || !(await countResetForAccount(services, account.id))) return;
  const token = await issueResetToken(services.database.db, account.id, services.clock());
  await recordResetRequested(services, account, address);
  await services.invitations.mailer.send(
    composePasswordResetEmail({
      to: account.email,
      name: account.name,
      username: account.username,
      resetUrl: resetPageUrl(services.env.PUBLIC_URL, token),
      validMinutes: RESET_LINK_MINUTES,
    }),
  );
}
