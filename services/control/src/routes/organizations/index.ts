import { activateOrganizationRoute } from "./activate.ts";
import { listMyOrganizationsRoute } from "./list.ts";
import { renameOrganizationRoute } from "./update.ts";

export const organizationRoutes = [listMyOrganizationsRoute, renameOrganizationRoute, activateOrganizationRoute];
