import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Access } from "../auth/principal.ts";

export type AppEnv = { Variables: { access: Access } };
export type App = OpenAPIHono<AppEnv>;
