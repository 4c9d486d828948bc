import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { registerAddMember } from "./add.ts";
import { registerListMembers } from "./list.ts";
import { registerRemoveMember } from "./remove.ts";
import { registerUpdateMember } from "./update.ts";

export function registerMemberRoutes(app: App, ctx: ControlContext): void {
  registerListMembers(app, ctx);
  registerAddMember(app, ctx);
  registerUpdateMember(app, ctx);
  registerRemoveMember(app, ctx);
}
