import { controlRoute } from "../../http/route.ts";
import { SiteMessages, UpdateSiteMessages } from "../../settings/schemas.ts";
import { updateSiteMessages } from "../../verbs/settings.ts";

export const updateSiteMessagesRoute = controlRoute(
  {
    method: "put",
    path: "/api/settings/messages",
    operationId: "updateSiteMessages",
    tags: ["settings"],
    who: "signed-in",
    body: UpdateSiteMessages,
    output: { schema: SiteMessages, description: "Updated" },
  },
  ({ ctx, body }) => updateSiteMessages({ ctx, input: body }),
);
