import { api } from "../api/client.ts";
import { authOptions } from "../app/session.ts";

/**
 * Two-factor as the settings page and the sign-in page use it, the same in both profiles: the local profile's
 * /api/auth/two-factor/* routes, or better-auth's /auth/two-factor/* in the session profile.
 */
export type TwoFactorStatus = {
  enabled: boolean;
  pending: boolean;
  recovery_codes_left: number;
  required_by: { organization_id: string; organization_name: string }[];
};
export type Enrolment = { secret: string; uri: string; recoveryCodes: string[] | null };

const session = () => authOptions.get().profile === "session";

export const getTwoFactorStatus = () => api.get<TwoFactorStatus>("/api/auth/two-factor");

export async function startEnrolment(password: string): Promise<Enrolment> {
  if (session()) {
    const r = await api.post<{ totpURI: string; backupCodes: string[] }>("/auth/two-factor/enable", { password });
    return {
      secret: new URL(r.totpURI).searchParams.get("secret") ?? "",
      uri: r.totpURI,
      recoveryCodes: r.backupCodes,
    };
  }
  const r = await api.post<{ secret: string; otpauth_uri: string }>("/api/auth/two-factor/enrol", { password });
  return { secret: r.secret, uri: r.otpauth_uri, recoveryCodes: null };
}

/** Confirms with the first code; answers the recovery codes (better-auth gave them at the start). */
export async function confirmEnrolment(code: string, enrolment: Enrolment): Promise<string[]> {
  if (session()) {
    await api.post("/auth/two-factor/verify-totp", { code });
    return enrolment.recoveryCodes ?? [];
  }
  return (await api.post<{ recovery_codes: string[] }>("/api/auth/two-factor/confirm", { code })).recovery_codes;
}

export type Proof = { password: string } | { code: string };

export async function newRecoveryCodes(proof: Proof): Promise<string[]> {
  if (session())
    return (await api.post<{ backupCodes: string[] }>("/auth/two-factor/generate-backup-codes", proof)).backupCodes;
  return (await api.post<{ recovery_codes: string[] }>("/api/auth/two-factor/recovery-codes", proof)).recovery_codes;
}

export async function disableTwoFactor(proof: Proof): Promise<void> {
  await api.post(session() ? "/auth/two-factor/disable" : "/api/auth/two-factor/disable", proof);
}

/** The second sign-in step: a TOTP code or a recovery code (challenge: the local profile's, from the first step). */
export async function completeSignIn(
  challenge: string | null,
  kind: "code" | "recovery",
  value: string,
): Promise<void> {
  if (session()) {
    await api.post(kind === "code" ? "/auth/two-factor/verify-totp" : "/auth/two-factor/verify-backup-code", {
      code: value,
    });
    return;
  }
  await api.post("/api/auth/local/login/two-factor", {
    challenge,
    ...(kind === "code" ? { code: value } : { recovery_code: value }),
  });
}
