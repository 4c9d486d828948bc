import { createLogger } from "@ams/shared";
import { z } from "zod";

/** The tenant's configuration, parsed once at start-up; a bad value stops the process with a clear message. */
export const TenantEnv = z.object({
  TENANT_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./data"),
  /** Standalone and development: the shared secret a key pair is derived from. Split: the public keys below. */
  TENANT_JWT_SECRET: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(32, "TENANT_JWT_SECRET must be at least 32 characters").optional(),
  ),
  /** Ed25519 public key (PEM key or certificate) of control's token key; the previous one during a rotation. */
  TENANT_JWT_PUBLIC_KEY: z.string().optional(),
  TENANT_JWT_PUBLIC_KEY_PREVIOUS: z.string().optional(),
  UPLOAD_LIMIT_MB: z.coerce.number().positive().default(50),
  JSON_BODY_LIMIT_KB: z.coerce.number().positive().default(1024),
  /** Where the icon-pack plugins live (default: the repository's plugins/ folder). */
  PLUGINS_DIR: z.string().optional(),
  IMPORT_PATHS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
});
export type TenantConfig = z.infer<typeof TenantEnv>;

/** The settings of the model routes themselves, which the standalone process reads too. */
export const TenantModelEnv = TenantEnv.pick({
  UPLOAD_LIMIT_MB: true,
  JSON_BODY_LIMIT_KB: true,
  PLUGINS_DIR: true,
  IMPORT_PATHS: true,
});

/** Like parseEnv, but throws (with every bad setting named) instead of exiting: for callers that report it. */
export function readEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return result.data;
}

export function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  try {
    return readEnv(schema, env);
  } catch (err) {
    createLogger({ service: "tenant" }).error((err as Error).message);
    process.exit(1);
  }
}
