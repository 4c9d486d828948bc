import { platformListAuditRoute } from "./audit/list.ts";
import { platformAddMemberRoute } from "./members/add.ts";
import { platformListMembersRoute } from "./members/list.ts";
import { platformRemoveMemberRoute } from "./members/remove.ts";
import { platformUpdateMemberRoute } from "./members/update.ts";
import { platformCreateOrganizationRoute } from "./organizations/create.ts";
import { platformDeleteOrganizationRoute } from "./organizations/delete.ts";
import { platformListOrganizationsRoute } from "./organizations/list.ts";
import { platformUpdateOrganizationRoute } from "./organizations/update.ts";
import { platformCreateUserRoute } from "./users/create.ts";
import { platformDeleteUserRoute } from "./users/delete.ts";
import { platformListUsersRoute } from "./users/list.ts";
import { platformResetUserPasswordRoute } from "./users/reset-password.ts";
import { platformUpdateUserRoute } from "./users/update.ts";

export const platformRoutes = [
  platformListOrganizationsRoute,
  platformCreateOrganizationRoute,
  platformUpdateOrganizationRoute,
  platformDeleteOrganizationRoute,
  platformListMembersRoute,
  platformAddMemberRoute,
  platformUpdateMemberRoute,
  platformRemoveMemberRoute,
  platformListAuditRoute,
  platformListUsersRoute,
  platformCreateUserRoute,
  platformUpdateUserRoute,
  platformResetUserPasswordRoute,
  platformDeleteUserRoute,
];
