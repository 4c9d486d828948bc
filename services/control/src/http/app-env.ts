import type { RequestIdVariables } from "@ams/shared/http";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Access } from "../auth/principal.ts";

export type AppEnv = {
  Variables: {
    access: Access;
    /** PUBLIC_URL is https: cookies are Secure even when a TLS-terminating proxy speaks plain http to us. */
    publicHttps: boolean;
    /** The gateway's route template of a forwarded request (metrics and the access log). */
    route?: string;
  } & RequestIdVariables;
};
export type App = OpenAPIHono<AppEnv>;
