import { z } from "zod";

const EnvSchema = z
  .object({
    MCP_PORT: z.coerce.number().int().min(1).max(65535).default(8082),
    /** postgres:// URL of the database control and tenant use (standalone mode runs mcp inside control instead). */
    DATABASE_URL: z.url({ message: "DATABASE_URL must be the postgres:// URL of the shared database" }),
    /** Standalone and development: the shared secret a key pair is derived from. Split: the public keys below. */
    TENANT_JWT_SECRET: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.string().min(32, "TENANT_JWT_SECRET must be at least 32 characters").optional(),
    ),
    /** Ed25519 public key (PEM key or certificate) of control's token key; the previous one during a rotation. */
    TENANT_JWT_PUBLIC_KEY: z.string().optional(),
    TENANT_JWT_PUBLIC_KEY_PREVIOUS: z.string().optional(),
    /** Largest request body in bytes (import_model carries whole models). */
    MCP_BODY_LIMIT: z.coerce
      .number()
      .int()
      .min(1024)
      .default(50 * 1024 * 1024),
  })
  .refine((env) => env.TENANT_JWT_PUBLIC_KEY || env.TENANT_JWT_SECRET, {
    path: ["TENANT_JWT_PUBLIC_KEY"],
    message: "TENANT_JWT_PUBLIC_KEY (the split shape) or TENANT_JWT_SECRET (standalone, development) is required",
  });

export type McpEnv = z.infer<typeof EnvSchema>;

/** Parses the environment once at start-up; throws one Error listing every problem. */
export function parseEnv(source: Record<string, string | undefined> = process.env): McpEnv {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid mcp configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
