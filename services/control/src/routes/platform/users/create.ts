import { controlRoute } from "../../../http/route.ts";
import { CreatedUser, CreateUserInput } from "../../../users/schemas.ts";
import { createUser } from "../../../verbs/users.ts";

export const platformCreateUserRoute = controlRoute(
  {
    method: "post",
    path: "/api/platform/users",
    operationId: "platformCreateUser",
    tags: ["platform"],
    who: "signed-in",
    body: CreateUserInput,
    output: {
      schema: CreatedUser,
      status: 201,
      description: "Created; without a password, a one-time set-password link (also e-mailed when SMTP is configured)",
    },
    problems: { 409: "The username or e-mail address is taken" },
  },
  ({ ctx, body }) => createUser({ ctx, input: body }),
);
