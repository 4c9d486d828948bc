import { z } from "@hono/zod-openapi";

const totpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "six digits from the authenticator app");
const recoveryCode = z.string().trim().min(10).max(20);

/** GET /api/auth/two-factor: the caller's two-factor state and which of their organizations require it. */
export const TwoFactorStatus = z
  .object({
    enabled: z.boolean().describe("Sign-in needs a second step (TOTP code or recovery code)"),
    pending: z.boolean().describe("An enrolment was started and waits for its first code"),
    recovery_codes_left: z.number().int().describe("Unused recovery codes"),
    required_by: z
      .array(z.object({ organization_id: z.string(), organization_name: z.string() }))
      .describe("The caller's organizations whose members must use two-factor"),
  })
  .openapi("TwoFactorStatus");
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

export const StartEnrolmentInput = z.object({ password: z.string().min(1).max(1024) });

/** The new secret, for the QR code (otpauth_uri) or to type in by hand (secret, base32). Shown until confirmed. */
export const TwoFactorEnrolment = z
  .object({ secret: z.string(), otpauth_uri: z.string() })
  .openapi("TwoFactorEnrolment");
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolment>;

export const ConfirmEnrolmentInput = z.object({ code: totpCode });

/** Shown once: only their hashes are kept. */
export const RecoveryCodes = z
  .object({ recovery_codes: z.array(z.string()).describe("Ten one-time codes, each signs in once without the app") })
  .openapi("RecoveryCodes");
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

/** Disabling two-factor or replacing the recovery codes is proven with the password or a current code. */
export const ProofInput = z
  .object({
    password: z.string().min(1).max(1024).optional(),
    code: z.string().trim().min(6).max(20).optional().describe("A TOTP code or an unused recovery code"),
  })
  .refine((v) => (v.password === undefined) !== (v.code === undefined), {
    message: "give either password or code",
    path: ["password"],
  });
export type ProofInput = z.infer<typeof ProofInput>;

/** The password was right and the account uses two-factor: no session yet, the second step comes first. */
export const TwoFactorChallenge = z
  .object({
    two_factor_required: z.literal(true),
    challenge: z.string().describe("Single use; send it with the code to POST /api/auth/local/login/two-factor"),
    expires_at: z.string(),
  })
  .openapi("TwoFactorChallenge");
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

export const SecondStepInput = z
  .object({
    challenge: z.string().min(1).max(200),
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.recovery_code === undefined), {
    message: "give either code or recovery_code",
    path: ["code"],
  });
export type SecondStepInput = z.infer<typeof SecondStepInput>;
