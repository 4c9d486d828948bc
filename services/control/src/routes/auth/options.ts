import { AuthOptions } from "../../accounts/schemas.ts";
import { controlRoute } from "../../http/route.ts";
import { getAuthOptions } from "../../verbs/accounts.ts";

/** What the sign-in page offers, so the browser UI never guesses the server's configuration. */
export const authOptionsRoute = controlRoute(
  {
    method: "get",
    path: "/api/auth/options",
    operationId: "getAuthOptions",
    tags: ["auth"],
    who: "public",
    output: { schema: AuthOptions, description: "How the sign-in page signs people in (public)" },
  },
  ({ ctx }) => getAuthOptions({ ctx }),
);
