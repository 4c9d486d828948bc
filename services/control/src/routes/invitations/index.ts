import { acceptInvitationRoute } from "./accept.ts";
import { createInvitationRoute } from "./create.ts";
import { listInvitationsRoute } from "./list.ts";
import { previewInvitationRoute } from "./preview.ts";
import { resendInvitationRoute } from "./resend.ts";
import { revokeInvitationRoute } from "./revoke.ts";

/** The owner's invitation management (org-param, org:members) and the invitee's preview and accept. */
export const invitationRoutes = [
  createInvitationRoute,
  listInvitationsRoute,
  revokeInvitationRoute,
  resendInvitationRoute,
  previewInvitationRoute,
  acceptInvitationRoute,
];
