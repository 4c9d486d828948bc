import type { Database } from "@ams/db";
import type { ControlContext } from "../context.ts";
import type { ControlDeps } from "../deps.ts";
import type { Logger } from "../http/problem.ts";
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
  ctx: ControlContext,
  deps: Pick<ControlDeps, "mailer" | "identityAdmin">,
): InvitationServices {
  const { env } = ctx;
  return {
    database: ctx.database,
    clock: ctx.clock,
    log: ctx.log,
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
