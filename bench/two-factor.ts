import { hashPassword, verifyPassword } from "../services/control/src/auth/passwords.ts";
import { createSecretBox } from "../services/control/src/two-factor/secret-box.ts";
import { checkTotp, newTotpSecret, totpCode } from "../services/control/src/two-factor/totp.ts";
import { measure, report, section } from "./lib.ts";

/**
 * Issue 22, item 4: what the TOTP check adds to a sign-in, beside the argon2id password check of the same sign-in,
 * in the same run: opening the AES-256-GCM sealed secret and checking a code over three 30-second steps (otpauth).
 * Target: at most 1 ms.
 */
export async function benchTwoFactor() {
  section("Sign-in with two-factor: the TOTP check beside argon2id");
  const password = "bench-password-123456";
  const hash = await hashPassword(password);
  const box = createSecretBox("bench-secret-bench-secret-bench-secret!!");
  const secret = newTotpSecret();
  const sealed = box.seal(secret, "bench-user");
  const argon = await measure(() => verifyPassword(hash, password), { iterations: 40, warmup: 5 });
  const now = new Date();
  const code = totpCode(secret, now);
  const totp = await measure(
    () => {
      if (!checkTotp(box.open(sealed, "bench-user"), code, now)) throw new Error("the code did not check");
    },
    { iterations: 2000 },
  );
  const wrong = await measure(() => checkTotp(box.open(sealed, "bench-user"), "000000", now), { iterations: 2000 });
  report("argon2id password check (the sign-in's first step)", argon.median, null, "reference", true);
  report("TOTP check: decrypt secret + verify a right code", totp.median, argon.median, "<= 1 ms", totp.median <= 1);
  report(
    "TOTP check: decrypt secret + refuse a wrong code (3 steps)",
    wrong.median,
    argon.median,
    "<= 1 ms",
    wrong.median <= 1,
  );
}
