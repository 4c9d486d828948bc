import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { PasswordResetByAdmin } from "../../../users/schemas.ts";
import { resetUserPassword } from "../../../verbs/users.ts";

export const platformResetUserPasswordRoute = controlRoute(
  {
    method: "post",
    path: "/api/platform/users/{id}/reset-password",
    operationId: "platformResetUserPassword",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
    output: {
      schema: PasswordResetByAdmin,
      description: "Every session and token of the user ended; a one-time set-password link (also e-mailed with SMTP)",
    },
    problems: { 409: "The account signs in through the identity provider" },
  },
  ({ ctx, params }) => resetUserPassword({ ctx, input: { id: params.id } }),
);
