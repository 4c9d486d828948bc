import type { Database } from "@ams/db";
import type { Logger } from "@ams/shared";
import type { ControlEnv } from "../env.ts";
import { type Mailer, mailerFromEnv } from "../mail/mailer.ts";
import type { IdentityAdmin } from "../sso/identity-admin.ts";

/** What the invitation verbs use: the database, the clock, the mailer and, with SSO, the identity admin. */
export type InvitationServices = {
  database: Database;
  clock: () => Date;
  log: Logger;
  mailer: Mailer;
  identityAdmin?: IdentityAdmin;
  settings: {
    publicUrl: string;
    ttlHours: number;
    ssoEnabled: boolean;
    selfRegistration: boolean;
    /** The web client the provider's onboarding e-mail returns to. */
    webClientId?: string;
  };
};

export function invitationServices(
  base: { database: Database; clock: () => Date; log: Logger; env: ControlEnv },
  deps: { mailer?: Mailer; identityAdmin?: IdentityAdmin },
): InvitationServices {
  const { env } = base;
  return {
    database: base.database,
    clock: base.clock,
    log: base.log,
    mailer: deps.mailer ?? mailerFromEnv(env),
    identityAdmin: deps.identityAdmin,
    settings: {
      publicUrl: env.PUBLIC_URL.replace(/\/+$/, ""),
      ttlHours: env.INVITATION_TTL_HOURS,
      ssoEnabled: env.IDP_SSO_ENABLED,
      selfRegistration: env.IDP_SELF_REGISTRATION,
      webClientId: env.IDP_CLIENT_ID_WEB,
    },
  };
}
