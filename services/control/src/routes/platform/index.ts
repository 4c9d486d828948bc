import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { registerPlatformAddMember } from "./members/add.ts";
import { registerPlatformListMembers } from "./members/list.ts";
import { registerPlatformRemoveMember } from "./members/remove.ts";
import { registerPlatformUpdateMember } from "./members/update.ts";
import { registerPlatformCreateOrganization } from "./organizations/create.ts";
import { registerPlatformDeleteOrganization } from "./organizations/delete.ts";
import { registerPlatformListOrganizations } from "./organizations/list.ts";
import { registerPlatformUpdateOrganization } from "./organizations/update.ts";

/** Admin's metadata-only routes (the gateway has required platform_admin). Plugin admin routes live in tenant. */
export function registerPlatformRoutes(app: App, ctx: ControlContext): void {
  registerPlatformListOrganizations(app, ctx);
  registerPlatformCreateOrganization(app, ctx);
  registerPlatformUpdateOrganization(app, ctx);
  registerPlatformDeleteOrganization(app, ctx);
  registerPlatformListMembers(app, ctx);
  registerPlatformAddMember(app, ctx);
  registerPlatformUpdateMember(app, ctx);
  registerPlatformRemoveMember(app, ctx);
}
