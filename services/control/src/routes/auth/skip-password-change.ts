import { renewAccessCookie } from "../../auth/session.ts";
import { controlRoute } from "../../http/route.ts";
import { skipPasswordChange } from "../../verbs/accounts.ts";

/** The access token is reissued without the must-change-password claim (the session profile has no such token). */
export const skipPasswordChangeRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/change-password/skip",
    operationId: "skipPasswordChange",
    tags: ["auth"],
    who: "signed-in",
  },
  async ({ ctx, c }) => {
    const identity = await skipPasswordChange({ ctx });
    if (!ctx.session) await renewAccessCookie(c, ctx, identity);
  },
);
