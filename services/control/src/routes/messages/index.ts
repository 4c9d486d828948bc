import { getSiteMessagesRoute } from "./get.ts";
import { updateSiteMessagesRoute } from "./update.ts";

export const messageRoutes = [getSiteMessagesRoute, updateSiteMessagesRoute];
