import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { changePasswordRoute } from "./change-password.ts";
import { forgotPasswordRoute } from "./forgot-password.ts";
import { registerLogin } from "./login.ts";
import { registerLogout } from "./logout.ts";
import { currentIdentityRoute } from "./me.ts";
import { authOptionsRoute } from "./options.ts";
import { registerRefresh } from "./refresh.ts";
import { resetPasswordRoute } from "./reset-password.ts";
import { skipPasswordChangeRoute } from "./skip-password-change.ts";

/** Sign-in, refresh and logout set and clear session cookies themselves; the account routes call verbs. */
export function registerSessionRoutes(app: App, ctx: ControlContext): void {
  registerLogin(app, ctx);
  registerRefresh(app, ctx);
  registerLogout(app, ctx);
}

export const accountRoutes = [authOptionsRoute, currentIdentityRoute, changePasswordRoute, skipPasswordChangeRoute];

/** The local profile's "forgot password" (the session profile's is better-auth's, under /auth). */
export const localPasswordResetRoutes = [forgotPasswordRoute, resetPasswordRoute];
