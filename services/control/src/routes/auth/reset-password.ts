import { clientIp } from "../../auth/client-ip.ts";
import { controlRoute } from "../../http/route.ts";
import { ResetPasswordInput } from "../../password-reset/schemas.ts";
import { resetPassword } from "../../verbs/password-reset.ts";

/** Anonymous: the mailed link's token is the proof. Every session of the account ends; sign in afterwards. */
export const resetPasswordRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/local/reset-password",
    operationId: "resetPassword",
    tags: ["auth"],
    who: "public",
    body: ResetPasswordInput,
    commonProblems: false,
    problems: {
      404: "The link is not valid",
      410: "The link was used already or has expired",
      422: "Validation failed (the password policy); `errors` lists the fields",
      429: "Too many requests from this client address; see Retry-After",
    },
  },
  ({ ctx, c, body }) => resetPassword({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } }),
);
