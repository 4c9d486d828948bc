import { controlRoute } from "../../http/route.ts";
import { SiteMessages } from "../../settings/schemas.ts";
import { getSiteMessages } from "../../verbs/settings.ts";

export const getSiteMessagesRoute = controlRoute(
  {
    method: "get",
    path: "/api/settings/messages",
    operationId: "getSiteMessages",
    tags: ["settings"],
    who: "public",
    output: { schema: SiteMessages, description: "Login and banner messages (public)" },
  },
  ({ ctx }) => getSiteMessages({ ctx }),
);
