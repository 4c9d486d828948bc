import { clientIp } from "../../auth/client-ip.ts";
import { controlRoute } from "../../http/route.ts";
import { ProofInput, RecoveryCodes } from "../../two-factor/schemas.ts";
import { regenerateRecoveryCodes } from "../../verbs/two-factor.ts";

export const regenerateRecoveryCodesRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/two-factor/recovery-codes",
    operationId: "regenerateRecoveryCodes",
    tags: ["two-factor"],
    who: "signed-in",
    body: ProofInput,
    output: { schema: RecoveryCodes, description: "Ten new codes, shown this once; the earlier ones stop working" },
    problems: { 409: "Two-factor is off", 429: "Too many failed attempts" },
  },
  ({ ctx, c, body }) =>
    regenerateRecoveryCodes({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } }),
);
