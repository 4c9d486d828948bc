import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { deleteUser } from "../../../verbs/users.ts";

export const platformDeleteUserRoute = controlRoute(
  {
    method: "delete",
    path: "/api/platform/users/{id}",
    operationId: "platformDeleteUser",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
    problems: { 409: "The user is an organization's last owner (named), or it is your own account" },
  },
  ({ ctx, params }) => deleteUser({ ctx, input: { id: params.id } }),
);
