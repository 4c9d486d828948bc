export { SERVICE_TOKEN_HEADER } from "@ams/shared/http";
export * from "./app.ts";
export { readEnv, TenantModelEnv } from "./env.ts";
