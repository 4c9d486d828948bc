import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { PlatformUser, UpdateUserInput } from "../../../users/schemas.ts";
import { updateUser } from "../../../verbs/users.ts";

export const platformUpdateUserRoute = controlRoute(
  {
    method: "put",
    path: "/api/platform/users/{id}",
    operationId: "platformUpdateUser",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
    body: UpdateUserInput,
    output: { schema: PlatformUser, description: "Updated; a disabled account's sessions and tokens stop at once" },
    problems: { 409: "The e-mail address is taken, or you tried to disable yourself" },
  },
  ({ ctx, params, body }) => updateUser({ ctx, input: { ...body, id: params.id } }),
);
