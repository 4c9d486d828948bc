import { z } from "zod";

/**
 * Control's configuration, parsed once at start-up. Development defaults make `pnpm start` work on a laptop;
 * with NODE_ENV=production the service refuses to start while any default secret or seed password is in use.
 */
export const devDefaults = {
  TENANT_JWT_SECRET: "dev-only-tenant-jwt-secret-change-me-0123456789",
  AUTH_JWT_SECRET: "dev-only-auth-jwt-secret-change-me-0123456789ab",
  SESSION_SECRET: "dev-only-session-secret-change-me-0123456789abcd",
  SEED_ADMIN_PASSWORD: "admin-dev-password",
  SEED_USER_PASSWORD: "user-dev-password",
  SEED_CONTRIB_PASSWORD: "contrib-dev-password",
  SEED_ARCHI_PASSWORD: "archi-dev-password",
  SEED_OPEN_PASSWORD: "open-dev-password",
} as const;

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .default("false")
  .transform((v) => v === "true" || v === "1");

const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());

const seedPassword = z.preprocess((v) => (v === "" ? undefined : v), z.string().min(1).optional());

const secret = (name: keyof typeof devDefaults) =>
  z.string().min(32, `${name} must be at least 32 characters`).default(devDefaults[name]);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /** postgres:// URL; absent means an embedded PGlite database under DATA_DIR. */
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default("./data"),
  TENANT_JWT_SECRET: secret("TENANT_JWT_SECRET"),
  /** Ed25519 private key (PEM) that signs inter-service tokens; tenant and mcp get only the public key. */
  TENANT_JWT_PRIVATE_KEY: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  AUTH_JWT_SECRET: secret("AUTH_JWT_SECRET"),
  /** local: the spec's local accounts (access JWT + refresh token); session: better-auth's session cookie (split profile). */
  AUTH_MODE: z.enum(["local", "session"]).default("local"),
  /** Signs the session cookie of AUTH_MODE=session (better-auth's secret). Required in production in that mode. */
  SESSION_SECRET: secret("SESSION_SECRET"),
  /** Root domain the session cookie is shared on (e.g. example.com for app. and api.); absent: host-only cookie. */
  COOKIE_DOMAIN: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^\.?[A-Za-z0-9.-]+$/, "a domain name such as example.com")
      .optional(),
  ),
  /** Comma-separated origins (besides PUBLIC_URL's) allowed to send cookie-authenticated writes. */
  TRUSTED_ORIGINS: z
    .string()
    .default("")
    .transform((v, ctx) => {
      const origins = v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean);
      const bad = origins.filter((o) => !URL.canParse(o) || new URL(o).origin !== o.replace(/\/$/, ""));
      for (const origin of bad) {
        ctx.addIssue({ code: "custom", message: `${origin} is not an origin (scheme://host[:port])` });
      }
      return bad.length ? z.NEVER : origins.map((o) => new URL(o).origin);
    }),
  /** How long the gateway reuses a session lookup (seconds): a revoked session stops working within this bound. */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(30).default(5),
  /** Split mode: where the tenant and mcp services listen. Absent means in-process (standalone). */
  TENANT_URL: optionalUrl,
  MCP_URL: optionalUrl,
  NATS_URL: optionalUrl,
  NEO4J_URL: optionalUrl,
  /**
   * The largest request body control reads (KiB), checked before anything else (authentication included): every
   * JSON route, sign-in and the OAuth token endpoint. Tenant reads the same variable.
   */
  JSON_BODY_LIMIT_KB: z.coerce.number().int().positive().default(1024),
  /** The largest body of the upload routes (MiB: import, create from file, MCP), passed on as it streams. */
  UPLOAD_LIMIT_MB: z.coerce.number().int().positive().default(50),
  /** How many reverse proxies in front of control append to X-Forwarded-For (0: use the socket address). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  DEMO_SEED: flag,
  /** The first platform admin's password, used when the users table is empty; production has no default. */
  SEED_ADMIN_PASSWORD: seedPassword,
  /** The other seeded accounts' passwords (seed/seed-env.ts says when each is used); production has no default. */
  SEED_USER_PASSWORD: seedPassword,
  SEED_CONTRIB_PASSWORD: seedPassword,
  SEED_ARCHI_PASSWORD: seedPassword,
  SEED_OPEN_PASSWORD: seedPassword,
  /** The browser-facing address of the service: links in e-mails and the OIDC redirect URI are built from it. */
  PUBLIC_URL: z.url().default("http://localhost:8080"),
  /** smtp://[user:pass@]host:port or smtps://...; absent means e-mail is not sent (invitations keep sent_at null). */
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default("ArchiMate Service <no-reply@localhost>"),
  INVITATION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(168),
  /** How long audit events are kept (days); older ones are purged hourly (audit/purge.ts). */
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100 * 365)
    .default(365),
  /**
   * How long the change log keeps field-level detail (days); unset keeps everything. Older detail is compacted
   * hourly (history/compaction.ts), keeping what versions need.
   */
  HISTORY_RETENTION_DAYS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number()
      .int()
      .min(1)
      .max(100 * 365)
      .optional(),
  ),
  /** External identity provider (Keycloak-compatible OIDC); checked for completeness in sso/config.ts. */
  /** The built browser UI; default apps/web/dist of this checkout. */
  WEB_DIR: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  IDP_SSO_ENABLED: flag,
  IDP_URL: optionalUrl,
  IDP_REALM: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/)
      .optional(),
  ),
  IDP_CLIENT_ID_WEB: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  IDP_CLIENT_SECRET_WEB: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  IDP_ACCESS_TOKEN_AUDIENCE: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  IDP_ADMIN_CLIENT_ID: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  IDP_ADMIN_CLIENT_SECRET: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  IDP_SELF_REGISTRATION: flag,
  IDP_VERIFY_EMAIL: flag,
  IDP_RESET_PASSWORD: flag,
});

export type ControlEnv = z.infer<typeof EnvSchema>;

/** The seed passwords, one per seeded account (seed/accounts.ts). */
export type SeedPassword =
  | "SEED_ADMIN_PASSWORD"
  | "SEED_USER_PASSWORD"
  | "SEED_CONTRIB_PASSWORD"
  | "SEED_ARCHI_PASSWORD"
  | "SEED_OPEN_PASSWORD";

/** Why a configuration seeds an account: the session profile's accounts (spec), or the demo. */
export type SeedReason = "AUTH_MODE=session" | "DEMO_SEED";

/** The session profile's seeded accounts (spec): created on the first start, with or without DEMO_SEED. */
export const SESSION_PROFILE_PASSWORDS: readonly SeedPassword[] = [
  "SEED_ADMIN_PASSWORD",
  "SEED_USER_PASSWORD",
  "SEED_CONTRIB_PASSWORD",
  "SEED_ARCHI_PASSWORD",
];
/** The demo accounts (DEMO_SEED), in every profile. */
export const DEMO_PASSWORDS: readonly SeedPassword[] = [...SESSION_PROFILE_PASSWORDS, "SEED_OPEN_PASSWORD"];

/**
 * The seed passwords this configuration will use, each with why: exactly the accounts seeding creates. The local
 * profile without DEMO_SEED seeds only the platform admin, and only when SEED_ADMIN_PASSWORD is given (so none is
 * required there). Production refuses to start while one of these is missing or a development default.
 */
export function seedPasswordsUsed(env: Pick<ControlEnv, "AUTH_MODE" | "DEMO_SEED">): Map<SeedPassword, SeedReason> {
  const used = new Map<SeedPassword, SeedReason>();
  if (env.AUTH_MODE === "session") for (const name of SESSION_PROFILE_PASSWORDS) used.set(name, "AUTH_MODE=session");
  if (env.DEMO_SEED) for (const name of DEMO_PASSWORDS) if (!used.has(name)) used.set(name, "DEMO_SEED");
  return used;
}

/** Parses and checks the environment; throws one Error listing every problem. */
export function parseEnv(source: Record<string, string | undefined> = process.env): ControlEnv {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid control configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.NODE_ENV !== "production") {
    for (const name of DEMO_PASSWORDS) env[name] ??= devDefaults[name];
  }
  const problems = productionProblems(env);
  if (problems.length > 0) {
    throw new Error(`Refusing to start in production:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
  return env;
}

function productionProblems(env: ControlEnv): string[] {
  if (env.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  // A seed password is required exactly when its account will be seeded (seed/seed-env.ts): the session profile's
  // accounts (spec), the demo ones with DEMO_SEED. The admin's, when given anyway, is still checked.
  const used: (keyof typeof devDefaults)[] = ["AUTH_JWT_SECRET", "SEED_ADMIN_PASSWORD"];
  for (const [name, reason] of seedPasswordsUsed(env)) {
    if (env[name] === undefined) problems.push(`${name} is required with ${reason}`);
    used.push(name);
  }
  // The session profile's cookie secret.
  if (env.AUTH_MODE === "session") used.push("SESSION_SECRET");
  // With a private key TENANT_JWT_SECRET is not used; split, the key is required: a shared secret would let tenant
  // and mcp mint control's tokens.
  if (!env.TENANT_JWT_PRIVATE_KEY) used.push("TENANT_JWT_SECRET");
  if (env.TENANT_URL && !env.TENANT_JWT_PRIVATE_KEY) {
    problems.push("TENANT_JWT_PRIVATE_KEY is required in the split shape (tenant and mcp get only its public key)");
  }
  for (const name of new Set(used)) {
    if (env[name] === devDefaults[name]) problems.push(`${name} is the development default; set a real value`);
  }
  if (!env.TENANT_JWT_PRIVATE_KEY && env.TENANT_JWT_SECRET === env.AUTH_JWT_SECRET) {
    problems.push("TENANT_JWT_SECRET and AUTH_JWT_SECRET must differ");
  }
  if (env.SEED_ADMIN_PASSWORD !== undefined && env.SEED_ADMIN_PASSWORD.length < 12)
    problems.push("SEED_ADMIN_PASSWORD must be at least 12 characters");
  // Invitation links and the OIDC redirect are built from it: a localhost default would send users nowhere.
  if (/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(env.PUBLIC_URL)) {
    problems.push("PUBLIC_URL is the development default; set the service's public address");
  }
  return problems;
}
