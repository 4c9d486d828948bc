import { z } from "@hono/zod-openapi";
import { controlRoute } from "../../http/route.ts";
import { getAuthOptions } from "../../verbs/accounts.ts";

export const AuthOptions = z
  .object({
    profile: z.enum(["local", "session"]).describe("How browsers sign in: local accounts or the session profile"),
    sso: z.boolean().describe("Whether sign-in through the external identity provider is offered"),
  })
  .openapi("AuthOptions");

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
