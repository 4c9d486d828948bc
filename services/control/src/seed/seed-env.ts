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

/** Which accounts a configuration seeds, and so which passwords production requires: env.ts (seedPasswordsUsed). */
export type { SeedPassword } from "../env.ts";
