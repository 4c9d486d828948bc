import { ChangePasswordInput } from "../../accounts/schemas.ts";
import { clientIp } from "../../auth/client-ip.ts";
import { startLocalSession } from "../../auth/session.ts";
import { controlRoute } from "../../http/route.ts";
import { changePassword } from "../../verbs/accounts.ts";

/** On success this browser gets a fresh session (every other one has ended). */
export const changePasswordRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/change-password",
    operationId: "changePassword",
    tags: ["auth"],
    who: "signed-in",
    body: ChangePasswordInput,
    problems: { 429: "Too many failed attempts" },
  },
  async ({ ctx, c, body }) => {
    const identity = await changePassword({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } });
    await startLocalSession(c, ctx, identity);
  },
);
