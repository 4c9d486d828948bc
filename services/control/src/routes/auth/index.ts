import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { registerChangePassword } from "./change-password.ts";
import { registerLogin } from "./login.ts";
import { registerLogout } from "./logout.ts";
import { registerAuthMe } from "./me.ts";
import { registerRefresh } from "./refresh.ts";
import { registerSkipPasswordChange } from "./skip-password-change.ts";

export function registerAuthRoutes(app: App, ctx: ControlContext): void {
  registerLogin(app, ctx);
  registerRefresh(app, ctx);
  registerLogout(app, ctx);
  registerAuthMe(app);
  registerChangePassword(app, ctx);
  registerSkipPasswordChange(app, ctx);
}
