import { memberships, organizations, users } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { asc, eq } from "drizzle-orm";
import type { AuthOptions, ChangePasswordInput, Profile, SignInInput } from "../accounts/schemas.ts";
import { recordAnonymousEvent, recordCallerEvent, subjectOf } from "../audit/record.ts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../auth/passwords.ts";
import type { Identity } from "../auth/principal.ts";
import { revokeAllSessions } from "../auth/refresh-tokens.ts";
import { findLocalCredential, identityOf, normalizeUsername, setLocalPassword, type UserRow } from "../auth/users.ts";
import { resolveActive } from "../gateway/resolve.ts";
import { providerSignInEnabled } from "../session/providers.ts";
import type { PublicContext, SignedInContext } from "./context.ts";

/** The caller's profile and memberships; with an API token, only the token's organization is in view. */
export async function getProfile({ ctx }: { ctx: SignedInContext }): Promise<Profile> {
  const p = ctx.principal;
  const rows = await ctx.database.db
    .select({ org: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, p.userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
  const [me] = await ctx.database.db
    .select({ twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, p.userId));
  const token = p.apiToken;
  const active = token
    ? { organizationId: token.organizationId, workspaceId: token.workspaceId }
    : await resolveActive(ctx.database, p.userId, p.activeOrganizationId);
  return {
    id: p.userId,
    username: p.username,
    name: p.name,
    email: p.email,
    email_verified: p.emailVerified,
    role: p.platformAdmin ? "platform_admin" : "user",
    must_change_password: p.mustChangePassword,
    two_factor_enabled: me?.twoFactorEnabled ?? false,
    auth_provider: p.provider,
    memberships: rows
      .filter((r) => !token || r.org.id === token.organizationId)
      .map((r) => ({
        organization_id: r.org.id,
        organization_slug: r.org.slug,
        organization_name: r.org.name,
        role: r.role,
        enabled: r.org.enabled,
        requires_two_factor: r.org.requireTwoFactor,
      })),
    active_organization_id: active?.organizationId ?? null,
    active_workspace_id: active?.workspaceId ?? null,
    api_token: token
      ? { id: token.tokenId, organization_id: token.organizationId, workspace_id: token.pinnedWorkspaceId }
      : null,
  };
}

/**
 * Local sign-in: the username's credential and password are checked under the failure limit (per username and client
 * address; over it, RATE_LIMITED with the wait). An unknown username costs the same password check as a wrong
 * password and gets the same answer, so the answer does not tell which accounts exist. Answers the identity the
 * route starts a session for. In the session profile sign-in is the session provider's, never this one.
 */
export async function signIn({
  ctx,
  input,
}: {
  ctx: PublicContext;
  input: SignInInput & { clientIp: string };
}): Promise<Identity> {
  if (ctx.session) throw new AppError("FORBIDDEN", "Local sign-in is off: this deployment uses the session profile");
  const username = normalizeUsername(input.username);
  const failed = (reason: string, target: UserRow | null = null) =>
    recordAnonymousEvent(ctx, {
      kind: "sign_in.failed",
      target: target && { id: target.id, name: target.username },
      details: { username, reason, method: "password" },
    });
  const attempt = await ctx.limiter.begin({ username, ip: input.clientIp }).catch(async (err: unknown) => {
    await failed("rate_limited");
    throw err;
  });
  const found = await findLocalCredential(ctx.database.db, username);
  if (!found) {
    await burnPasswordCheck(input.password);
    await failed("invalid_credentials");
    throw invalidCredentials();
  }
  if (!(await verifyPassword(found.passwordHash, input.password))) {
    await failed("invalid_credentials", found.user);
    throw invalidCredentials();
  }
  if (found.user.banned) {
    await failed("disabled", found.user);
    throw accountDisabled();
  }
  await attempt.succeeded();
  await recordAnonymousEvent(ctx, {
    kind: "sign_in.succeeded",
    actor: { id: found.user.id, name: found.user.username },
    target: { id: found.user.id, name: found.user.username },
    // With two-factor the session starts only after the second step (recorded then, method two_factor).
    details: { method: "password", ...(found.user.twoFactorEnabled ? { second_step_required: true } : {}) },
  });
  return identityOf(found.user);
}

const invalidCredentials = () => new AppError("UNAUTHENTICATED", "Invalid username or password");
/** The password was right but the platform admin disabled the account. */
export const accountDisabled = () =>
  new AppError("FORBIDDEN", "This account is disabled; ask your platform administrator");

function requireLocalAccount(ctx: SignedInContext): void {
  if (ctx.principal.provider !== "local") {
    throw new AppError("FORBIDDEN", "The password of this account is managed by the identity provider");
  }
}

/**
 * Changes the local password. The current password is checked under the same failure limit as sign-in (per
 * username and client address); on success every session of the user ends. Answers the identity the caller's new
 * session is started for (without must_change_password).
 */
export async function changePassword({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: ChangePasswordInput & { clientIp: string };
}): Promise<Identity> {
  const { principal } = ctx;
  requireLocalAccount(ctx);
  const attempt = await ctx.limiter.begin({ username: principal.username, ip: input.clientIp });
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
  ctx.accessState.forgetUser(principal.userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "The account no longer exists");
  await recordCallerEvent(ctx, { kind: "password.changed", target: subjectOf(principal) });
  return identityOf(user);
}

/**
 * "Skip" on the forced change: clears mustChangePassword; answers the identity to reissue the access token for. In
 * the session profile (better-auth's passwords) this process forgets its cached lookups of the user's sessions, so
 * the next request already sees the flag cleared.
 */
export async function skipPasswordChange({ ctx }: { ctx: SignedInContext }): Promise<Identity> {
  if (ctx.principal.provider !== "session") requireLocalAccount(ctx);
  const [user] = await ctx.database.db
    .update(users)
    .set({ mustChangePassword: false, updatedAt: ctx.clock() })
    .where(eq(users.id, ctx.principal.userId))
    .returning();
  if (!user) throw new AppError("UNAUTHENTICATED", "The account no longer exists");
  ctx.session?.lookup.forgetUser(user.id);
  return identityOf(user);
}

/** What the sign-in page offers: the sign-in profile, whether SSO is on and whether a password can be reset by mail. */
export function getAuthOptions({ ctx }: { ctx: PublicContext }): AuthOptions {
  const password_reset = ctx.mailConfigured;
  if (ctx.env.AUTH_MODE === "session")
    return { profile: "session", sso: providerSignInEnabled(ctx.env), password_reset };
  return { profile: "local", sso: ctx.env.IDP_SSO_ENABLED, password_reset };
}
