import { clientIp } from "../../auth/client-ip.ts";
import { controlRoute } from "../../http/route.ts";
import { FORGOT_PASSWORD_MESSAGE, ForgotPasswordAnswer, ForgotPasswordInput } from "../../password-reset/schemas.ts";
import { forgotPassword } from "../../verbs/password-reset.ts";

/** Anonymous: the same 202 for every address, so nobody learns from it which addresses have an account. */
export const forgotPasswordRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/local/forgot-password",
    operationId: "forgotPassword",
    tags: ["auth"],
    who: "public",
    body: ForgotPasswordInput,
    output: {
      schema: ForgotPasswordAnswer,
      status: 202,
      description: "Accepted; when a local account uses the address, a one-time link (30 minutes) is e-mailed to it",
    },
    commonProblems: false,
    problems: {
      422: "Validation failed; `errors` lists the fields",
      429: "Too many requests from this client address; see Retry-After",
      503: "E-mail is not configured on this server",
    },
  },
  async ({ ctx, c, body }) => {
    await forgotPassword({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } });
    return { status: true as const, message: FORGOT_PASSWORD_MESSAGE };
  },
);
