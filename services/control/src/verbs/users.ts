import { memberships, userSelections, users } from "@ams/db";
import { AppError } from "@ams/shared";
import { eq } from "drizzle-orm";
import { recordCallerEvent } from "../audit/record.ts";
import { createLocalUser } from "../auth/create-user.ts";
import { randomSecret } from "../auth/secrets.ts";
import { normalizeUsername, type UserRow } from "../auth/users.ts";
import { composeSetPasswordEmail } from "../mail/set-password-email.ts";
import { endEverySession, lockUser, organizationsOnlyOwnedBy, refuseTaken, scramblePassword } from "../users/manage.ts";
import {
  type IssuedLink,
  issueSessionSetPasswordToken,
  issueSetPasswordToken,
  setPasswordUrl,
} from "../users/password-link.ts";
import { getPlatformUser, listPlatformUsers } from "../users/read.ts";
import type {
  CreatedUser,
  CreateUserInput,
  ListUsersQuery,
  PasswordLink,
  PasswordResetByAdmin,
  PlatformUser,
  PlatformUserPage,
  UpdateUserInput,
} from "../users/schemas.ts";
import type { SignedInContext } from "./context.ts";

/**
 * The platform admin's user administration (the gateway lets only Admin call these): list and search accounts,
 * create one (with a first password to change at first sign-in, or a one-time set-password link), change name,
 * e-mail or disabled, reset the password (every session and token ends; a new link), delete. Each is audited.
 */
export function listUsers({ ctx, input }: { ctx: SignedInContext; input: ListUsersQuery }): Promise<PlatformUserPage> {
  return listPlatformUsers(ctx.database, input);
}

export async function createUser({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: CreateUserInput;
}): Promise<CreatedUser> {
  const username = normalizeUsername(input.username);
  const email = input.email.toLowerCase();
  const now = ctx.clock();
  const { user, link } = await ctx.database.db.transaction(async (tx) => {
    await refuseTaken(tx, { username, email }, null);
    const row = await createLocalUser(tx, {
      username: input.username,
      name: input.name,
      email,
      password: input.password ?? randomSecret(32),
      mustChangePassword: input.password !== undefined,
    });
    const issued = input.password === undefined && !ctx.session ? await issueSetPasswordToken(tx, row.id, now) : null;
    await recordCallerEvent(
      ctx,
      {
        kind: "user.created",
        target: { id: row.id, name: row.username },
        details: { name: row.name, email: row.email, with_password: input.password !== undefined },
      },
      tx,
    );
    return { user: row, link: issued };
  });
  const made = input.password === undefined ? (link ?? (await sessionLink(ctx, user.id, now))) : null;
  return {
    user: await mustRead(ctx, user.id),
    set_password_link: made ? await deliverLink(ctx, user, made, "created") : null,
  };
}

export async function updateUser({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: UpdateUserInput & { id: string };
}): Promise<PlatformUser> {
  if (input.disabled === true && input.id === ctx.principal.userId) {
    throw new AppError("CONFLICT", "You cannot disable your own account");
  }
  const now = ctx.clock();
  const email = input.email?.toLowerCase();
  await ctx.database.db.transaction(async (tx) => {
    const before = await lockUser(tx, input.id);
    if (email !== undefined && email !== before.email) await refuseTaken(tx, { email }, before.id);
    const changes = {
      ...(input.name !== undefined && input.name !== before.name ? { name: input.name } : {}),
      ...(email !== undefined && email !== before.email ? { email, emailVerified: false } : {}),
      ...(input.disabled !== undefined && input.disabled !== before.banned ? { banned: input.disabled } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(users)
      .set({ ...changes, updatedAt: now })
      .where(eq(users.id, before.id));
    const target = { id: before.id, name: before.username };
    if (changes.name !== undefined || changes.email !== undefined) {
      const details: Record<string, unknown> = {};
      if (changes.name !== undefined) details.name = { from: before.name, to: changes.name };
      if (changes.email !== undefined) details.email = { from: before.email, to: changes.email };
      await recordCallerEvent(ctx, { kind: "user.updated", target, details }, tx);
    }
    if (changes.banned !== undefined) {
      // A disabled account's sessions end now; enabling it again does not bring them back.
      if (changes.banned) await endEverySession(tx, before.id, now, { apiTokens: false });
      await recordCallerEvent(ctx, { kind: changes.banned ? "user.disabled" : "user.enabled", target }, tx);
    }
  });
  forgetCached(ctx, input.id);
  return mustRead(ctx, input.id);
}

/**
 * Resets the password: nobody knows the old one any more, every session and access token of the user ends, their
 * API tokens are revoked, their earlier links stop working, and a new one-time link is made (and mailed).
 */
export async function resetUserPassword({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { id: string };
}): Promise<PasswordResetByAdmin> {
  const now = ctx.clock();
  const { user, link } = await ctx.database.db.transaction(async (tx) => {
    const row = await lockUser(tx, input.id);
    await scramblePassword(tx, row.id, now);
    await endEverySession(tx, row.id, now, { apiTokens: true });
    const issued = await issueSetPasswordToken(tx, row.id, now);
    await recordCallerEvent(
      ctx,
      { kind: "user.password_reset_by_admin", target: { id: row.id, name: row.username } },
      tx,
    );
    return { user: row, link: issued };
  });
  forgetCached(ctx, user.id);
  const made = link ?? (await sessionLink(ctx, user.id, now));
  return { set_password_link: await deliverLink(ctx, user, made, "reset") };
}

/** Deletes the account (its sessions, tokens and memberships); 409 while it is an organization's only owner. */
export async function deleteUser({ ctx, input }: { ctx: SignedInContext; input: { id: string } }): Promise<void> {
  if (input.id === ctx.principal.userId) throw new AppError("CONFLICT", "You cannot delete your own account");
  await ctx.database.db.transaction(async (tx) => {
    const row = await lockUser(tx, input.id);
    const sole = await organizationsOnlyOwnedBy(tx, row.id);
    if (sole.length > 0) {
      const names = sole.map((o) => `'${o.name}'`).join(", ");
      throw new AppError(
        "CONFLICT",
        `${row.username} is the last owner of ${names}; make another member owner or delete the organization first`,
      );
    }
    await tx.delete(memberships).where(eq(memberships.userId, row.id));
    await tx.delete(userSelections).where(eq(userSelections.userId, row.id));
    await tx.delete(users).where(eq(users.id, row.id));
    await recordCallerEvent(
      ctx,
      {
        kind: "user.deleted",
        target: { id: row.id, name: row.username },
        details: { name: row.name, email: row.email },
      },
      tx,
    );
  });
  forgetCached(ctx, input.id);
}

/** The session profile's link (better-auth's reset token), made once the account's transaction committed. */
function sessionLink(ctx: SignedInContext, userId: string, now: Date): Promise<IssuedLink> {
  if (!ctx.session) throw new AppError("INTERNAL", "A local link should have been made in the transaction");
  return issueSessionSetPasswordToken(ctx.session.auth, userId, now);
}

async function mustRead(ctx: SignedInContext, id: string): Promise<PlatformUser> {
  const user = await getPlatformUser(ctx.database, id);
  if (!user) throw new AppError("NOT_FOUND", "User not found");
  return user;
}

/** This replica forgets what it remembered of the user at once (the others through the database's announcement). */
function forgetCached(ctx: SignedInContext, userId: string): void {
  ctx.accessState.forgetUser(userId);
  ctx.session?.lookup.forgetUser(userId);
}

/** The link as the admin sees it; mailed too when SMTP is configured (a failed send is said, not fatal). */
async function deliverLink(
  ctx: SignedInContext,
  user: UserRow,
  link: IssuedLink,
  reason: "created" | "reset",
): Promise<PasswordLink> {
  const url = setPasswordUrl(ctx.env.PUBLIC_URL, link.token);
  let sent = false;
  if (ctx.env.SMTP_URL) {
    try {
      await ctx.invitations.mailer.send(
        composeSetPasswordEmail({
          to: user.email,
          name: user.name,
          username: user.username,
          reason,
          url,
          expiresAt: link.expiresAt,
        }),
      );
      sent = true;
    } catch (err) {
      ctx.log.warn(`set-password e-mail to user ${user.id} failed: ${(err as Error).message}`);
    }
  }
  return { url, expires_at: link.expiresAt.toISOString(), email_sent: sent };
}
