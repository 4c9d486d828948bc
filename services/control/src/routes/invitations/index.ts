import { acceptInvitationRoute } from "./accept.ts";
import { createInvitationRoute } from "./create.ts";
import { listInvitationsRoute } from "./list.ts";
import { previewInvitationRoute } from "./preview.ts";
import { registerFromInvitationRoute } from "./register.ts";
import { resendInvitationRoute } from "./resend.ts";
import { revokeInvitationRoute } from "./revoke.ts";

/** The owner's invitation management (org-param, org:members), the invitee's preview and accept, and the
 * anonymous account creation from the link. */
export const invitationRoutes = [
  createInvitationRoute,
  listInvitationsRoute,
  revokeInvitationRoute,
  resendInvitationRoute,
  previewInvitationRoute,
  acceptInvitationRoute,
  registerFromInvitationRoute,
];
