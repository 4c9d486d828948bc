import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { registerGetMessages } from "./get.ts";
import { registerUpdateMessages } from "./update.ts";

export function registerMessageRoutes(app: App, ctx: ControlContext): void {
  registerGetMessages(app, ctx);
  registerUpdateMessages(app, ctx);
}
