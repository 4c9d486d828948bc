import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Access } from "../auth/principal.ts";

export type AppEnv = {
  Variables: {
    access: Access;
    /** PUBLIC_URL is https: cookies are Secure even when a TLS-terminating proxy speaks plain http to us. */
    publicHttps: boolean;
  };
};
export type App = OpenAPIHono<AppEnv>;
