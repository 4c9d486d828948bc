import { createRoute } from "@hono/zod-openapi";
import type { App } from "../../http/app-env.ts";
import { jsonResponse, problemResponses } from "../../http/openapi.ts";
import { CurrentIdentity, toCurrentIdentity } from "./schemas.ts";

const route = createRoute({
  method: "get",
  path: "/api/auth/me",
  operationId: "getCurrentIdentity",
  tags: ["auth"],
  responses: { 200: jsonResponse(CurrentIdentity, "The signed-in identity"), 401: problemResponses[401] },
});

export const registerAuthMe = (app: App) =>
  app.openapi(route, (c) => c.json(toCurrentIdentity(c.var.access.principal!), 200));
