export * from "./app.ts";
export { readEnv, TenantModelEnv } from "./env.ts";
export { SERVICE_TOKEN_HEADER } from "./middleware/service-auth.ts";
