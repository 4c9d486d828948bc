import { Profile } from "../../accounts/schemas.ts";
import { controlRoute } from "../../http/route.ts";
import { getProfile } from "../../verbs/accounts.ts";

export const getProfileRoute = controlRoute(
  {
    method: "get",
    path: "/api/me",
    operationId: "getProfile",
    tags: ["identity"],
    who: "signed-in",
    output: { schema: Profile, description: "Profile and memberships" },
  },
  ({ ctx }) => getProfile({ ctx }),
);
