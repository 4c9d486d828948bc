import { controlRoute } from "../../http/route.ts";
import { CurrentIdentity, toCurrentIdentity } from "./schemas.ts";

export const currentIdentityRoute = controlRoute(
  {
    method: "get",
    path: "/api/auth/me",
    operationId: "getCurrentIdentity",
    tags: ["auth"],
    who: "signed-in",
    output: { schema: CurrentIdentity, description: "The signed-in identity" },
  },
  ({ ctx }) => toCurrentIdentity(ctx.principal),
);
