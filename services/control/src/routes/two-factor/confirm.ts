import { controlRoute } from "../../http/route.ts";
import { ConfirmEnrolmentInput, RecoveryCodes } from "../../two-factor/schemas.ts";
import { confirmTwoFactorEnrolment } from "../../verbs/two-factor.ts";

export const confirmEnrolmentRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/two-factor/confirm",
    operationId: "confirmTwoFactorEnrolment",
    tags: ["two-factor"],
    who: "signed-in",
    body: ConfirmEnrolmentInput,
    output: { schema: RecoveryCodes, description: "Two-factor is on; the recovery codes, shown this once" },
    problems: { 409: "No enrolment started, or two-factor already on", 429: "Too many wrong codes" },
  },
  ({ ctx, body }) => confirmTwoFactorEnrolment({ ctx, input: body }),
);
