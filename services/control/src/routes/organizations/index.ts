import { activateOrganizationRoute } from "./activate.ts";
import { organizationAuditRoute } from "./audit.ts";
import { listMyOrganizationsRoute } from "./list.ts";
import { updateOrganizationRoute } from "./update.ts";

export const organizationRoutes = [
  listMyOrganizationsRoute,
  updateOrganizationRoute,
  activateOrganizationRoute,
  organizationAuditRoute,
];
