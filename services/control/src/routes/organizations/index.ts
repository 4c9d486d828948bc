import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { registerActivateOrganization } from "./activate.ts";
import { registerListOrganizations } from "./list.ts";
import { registerRenameOrganization } from "./update.ts";

export function registerOrganizationRoutes(app: App, ctx: ControlContext): void {
  registerListOrganizations(app, ctx);
  registerRenameOrganization(app, ctx);
  registerActivateOrganization(app, ctx);
}
