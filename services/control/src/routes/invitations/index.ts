import type { ControlContext } from "../../context.ts";
import type { ControlDeps } from "../../deps.ts";
import type { App } from "../../http/app-env.ts";
import { invitationServices } from "../../invitations/services.ts";
import { registerAcceptInvitation } from "./accept.ts";
import { registerCreateInvitation } from "./create.ts";
import { registerListInvitations } from "./list.ts";
import { registerPreviewInvitation } from "./preview.ts";
import { registerResendInvitation } from "./resend.ts";
import { registerRevokeInvitation } from "./revoke.ts";

/** The owner's invitation management (org-param, org:members) and the invitee's preview and accept. */
export function registerInvitationRoutes(
  app: App,
  ctx: ControlContext,
  deps: Pick<ControlDeps, "mailer" | "identityAdmin">,
): void {
  const s = invitationServices(ctx, deps);
  registerCreateInvitation(app, s);
  registerListInvitations(app, s);
  registerRevokeInvitation(app, s);
  registerResendInvitation(app, s);
  registerPreviewInvitation(app, s);
  registerAcceptInvitation(app, s);
}
