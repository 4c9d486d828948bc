import { controlRoute } from "../../../http/route.ts";
import { ListUsersQuery, PlatformUserPage } from "../../../users/schemas.ts";
import { listUsers } from "../../../verbs/users.ts";

export const platformListUsersRoute = controlRoute(
  {
    method: "get",
    path: "/api/platform/users",
    operationId: "platformListUsers",
    tags: ["platform"],
    who: "signed-in",
    query: ListUsersQuery,
    output: { schema: PlatformUserPage, description: "Accounts by username, with the total for paging" },
  },
  ({ ctx, query }) => listUsers({ ctx, input: query }),
);
