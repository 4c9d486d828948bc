import { controlRoute } from "../../http/route.ts";
import { TwoFactorStatus } from "../../two-factor/schemas.ts";
import { getTwoFactorStatus } from "../../verbs/two-factor.ts";

export const twoFactorStatusRoute = controlRoute(
  {
    method: "get",
    path: "/api/auth/two-factor",
    operationId: "getTwoFactorStatus",
    tags: ["two-factor"],
    who: "signed-in",
    output: { schema: TwoFactorStatus, description: "The caller's two-factor state (both profiles)" },
  },
  ({ ctx }) => getTwoFactorStatus({ ctx }),
);
