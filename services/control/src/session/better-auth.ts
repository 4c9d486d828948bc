import { randomUUID } from "node:crypto";
import { accounts, type Database, sessions, twoFactors, users, verifications } from "@ams/db";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { admin, genericOAuth, username } from "better-auth/plugins";
import { adminAc, userAc } from "better-auth/plugins/admin/access";
import { eq } from "drizzle-orm";
import { PLATFORM_ADMIN_ROLE } from "../auth/claims.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "../auth/passwords.ts";
import { normalizeUsername } from "../auth/users.ts";
import type { ControlEnv } from "../env.ts";
import { passwordResetOptions, RESET_IDENTIFIER_PREFIX, type SessionMail } from "./password-reset.ts";
import { keycloakProvider } from "./providers.ts";
import { twoFactorPlugin, withHashedRecoveryCode } from "./two-factor.ts";

export type { SessionMail } from "./password-reset.ts";

export const SESSION_BASE_PATH = "/auth";
/**
 * better-auth's cookie prefix; the cookie is `<prefix>.session_token`. Over https it is `__Host-ams.session_token`:
 * Secure, Path=/ and no Domain, so no sibling subdomain can set or shadow it. Only with COOKIE_DOMAIN (a cookie
 * shared across subdomains, which `__Host-` forbids) is it `__Secure-ams.session_token`.
 */
const COOKIE_PREFIX = "ams";
/** Sessions last a week and are extended once a day while used (better-auth's defaults, stated). */
const SESSION_SECONDS = 7 * 24 * 3600;
/** better-auth's password change: POST /auth/change-password {currentPassword, newPassword}. */
const CHANGE_PASSWORD = "/change-password";

/**
 * The session profile's identity service (AUTH_MODE=session): better-auth on our own users/accounts/sessions tables
 * through its drizzle adapter, username sign-in, the admin plugin for the platform role, argon2id passwords (the same
 * hashes as local accounts, so an account moves between profiles), no self sign-up (accounts come from seeds,
 * invitations and the platform admin).
 */
export function createSessionAuth(env: ControlEnv, database: Database, mail: SessionMail) {
  const https = new URL(env.PUBLIC_URL).protocol === "https:";
  const hostOnly = https && !env.COOKIE_DOMAIN;
  const keycloak = keycloakProvider(env, database);
  return betterAuth({
    appName: "ArchiMate",
    baseURL: env.PUBLIC_URL,
    basePath: SESSION_BASE_PATH,
    secret: env.SESSION_SECRET,
    telemetry: { enabled: false },
    logger: { disabled: env.NODE_ENV === "test" },
    database: drizzleAdapter(database.db as Parameters<typeof drizzleAdapter>[0], {
      provider: "pg",
      schema: { user: users, account: accounts, session: sessions, verification: verifications, twoFactor: twoFactors },
    }),
    trustedOrigins: [new URL(env.PUBLIC_URL).origin, ...env.TRUSTED_ORIGINS],
    // A provider sign-in that fails before its own error address is known (a wrong or expired state) lands on the
    // sign-in page, which says so (`?error=<code>`).
    onAPIError: { errorURL: `${env.PUBLIC_URL.replace(/\/$/, "")}/login` },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(hash, password) },
      ...passwordResetOptions(env.PUBLIC_URL, database, mail),
    },
    // Reset links are secrets: only the SHA-256 of their identifier is stored (other verification values, such as
    // an OAuth sign-in's state, stay as they are).
    verification: { storeIdentifier: { default: "plain", overrides: { [RESET_IDENTIFIER_PREFIX]: "hashed" } } },
    session: {
      expiresIn: SESSION_SECONDS,
      updateAge: 24 * 3600,
      additionalFields: { activeOrganizationId: { type: "string", required: false, input: false } },
    },
    user: { additionalFields: { mustChangePassword: { type: "boolean", required: false, input: false } } },
    hooks: {
      // A password change ends every other session of the user, whatever the client asks (as in the local profile);
      // better-auth then starts a fresh session for this browser. A presented recovery code is compared hashed.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== CHANGE_PASSWORD) {
          const body = withHashedRecoveryCode(ctx.path, ctx.body);
          return body ? { context: { body } } : undefined;
        }
        return { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } };
      }),
      // A changed password satisfies a forced change.
      after: createAuthMiddleware(async (ctx) => {
        const userId = ctx.path === CHANGE_PASSWORD ? ctx.context.newSession?.user.id : undefined;
        if (!userId || isAPIError(ctx.context.returned)) return;
        await database.db.update(users).set({ mustChangePassword: false }).where(eq(users.id, userId));
      }),
    },
    // better-auth's limiter lives in one process's memory. Failed sign-ins are counted in the database instead (the
    // local profile's limit, shared by every replica: session/routes.ts), so its own rule for them is off.
    rateLimit: {
      enabled: env.NODE_ENV !== "test",
      window: 60,
      max: 100,
      customRules: { "/sign-in/username": false },
    },
    advanced: {
      // __Host- in the prefix (better-auth would put __Secure- in front of it), Secure set by the default attributes.
      cookiePrefix: hostOnly ? `__Host-${COOKIE_PREFIX}` : COOKIE_PREFIX,
      useSecureCookies: https && !hostOnly,
      defaultCookieAttributes: hostOnly ? { secure: true, path: "/" } : undefined,
      crossSubDomainCookies: env.COOKIE_DOMAIN ? { enabled: true, domain: env.COOKIE_DOMAIN } : undefined,
      database: { generateId: () => randomUUID() },
    },
    plugins: [
      username({
        minUsernameLength: 1,
        maxUsernameLength: 64,
        usernameNormalization: normalizeUsername,
        usernameValidator: (name) => /^[A-Za-z0-9._@-]+$/.test(name),
      }),
      admin({
        defaultRole: "user",
        adminRoles: [PLATFORM_ADMIN_ROLE],
        roles: { user: userAc, [PLATFORM_ADMIN_ROLE]: adminAc },
      }),
      twoFactorPlugin(),
      ...(keycloak ? [genericOAuth({ config: [keycloak] })] : []),
    ],
  });
}

export type SessionAuth = ReturnType<typeof createSessionAuth>;
