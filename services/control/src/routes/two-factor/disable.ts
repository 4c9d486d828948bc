import { clientIp } from "../../auth/client-ip.ts";
import { controlRoute } from "../../http/route.ts";
import { ProofInput } from "../../two-factor/schemas.ts";
import { disableTwoFactor } from "../../verbs/two-factor.ts";

export const disableTwoFactorRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/two-factor/disable",
    operationId: "disableTwoFactor",
    tags: ["two-factor"],
    who: "signed-in",
    body: ProofInput,
    problems: { 429: "Too many failed attempts" },
  },
  ({ ctx, c, body }) => disableTwoFactor({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } }),
);
