export * from "./app.ts";
export { SERVICE_TOKEN_HEADER } from "./middleware/service-auth.ts";
