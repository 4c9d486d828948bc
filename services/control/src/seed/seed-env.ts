import type { ControlEnv } from "../env.ts";

/** The settings seeding reads: the profile, whether to seed the demo, and the seed passwords. */
export type SeedEnv = Pick<
  ControlEnv,
  | "DEMO_SEED"
  | "AUTH_MODE"
  | "SEED_ADMIN_PASSWORD"
  | "SEED_USER_PASSWORD"
  | "SEED_CONTRIB_PASSWORD"
  | "SEED_ARCHI_PASSWORD"
  | "SEED_OPEN_PASSWORD"
>;

export type SeedPassword = Exclude<keyof SeedEnv, "DEMO_SEED" | "AUTH_MODE">;

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
 * required there). Production refuses to start while one of these is missing or a development default (env.ts).
 */
export function seedPasswordsUsed(env: Pick<SeedEnv, "AUTH_MODE" | "DEMO_SEED">): Map<SeedPassword, SeedReason> {
  const used = new Map<SeedPassword, SeedReason>();
  if (env.AUTH_MODE === "session") for (const name of SESSION_PROFILE_PASSWORDS) used.set(name, "AUTH_MODE=session");
  if (env.DEMO_SEED) for (const name of DEMO_PASSWORDS) if (!used.has(name)) used.set(name, "DEMO_SEED");
  return used;
}
