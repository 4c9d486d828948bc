import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { registerCreateApiToken } from "./create.ts";
import { registerListApiTokens } from "./list.ts";
import { registerRevokeApiToken } from "./revoke.ts";

export function registerApiTokenRoutes(app: App, ctx: ControlContext): void {
  registerListApiTokens(app, ctx);
  registerCreateApiToken(app, ctx);
  registerRevokeApiToken(app, ctx);
}
