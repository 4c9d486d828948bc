import { clientIp } from "../../auth/client-ip.ts";
import { controlRoute } from "../../http/route.ts";
import { StartEnrolmentInput, TwoFactorEnrolment } from "../../two-factor/schemas.ts";
import { startTwoFactorEnrolment } from "../../verbs/two-factor.ts";

/** Local profile; the session profile enrols through better-auth at POST /auth/two-factor/enable. */
export const startEnrolmentRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/two-factor/enrol",
    operationId: "startTwoFactorEnrolment",
    tags: ["two-factor"],
    who: "signed-in",
    body: StartEnrolmentInput,
    output: { schema: TwoFactorEnrolment, description: "A new secret, waiting for its first code" },
    problems: { 409: "Two-factor is already on", 429: "Too many failed attempts" },
  },
  ({ ctx, c, body }) =>
    startTwoFactorEnrolment({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } }),
);
