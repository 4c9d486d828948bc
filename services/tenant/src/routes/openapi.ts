import type { OpenAPIHono } from "@hono/zod-openapi";
import type { TenantEnv } from "../middleware/service-auth.ts";

export type TenantApp = OpenAPIHono<TenantEnv>;

export { IdParam } from "@ams/shared/http";
