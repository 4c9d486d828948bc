/** The HTTP toolkit every service uses: problems, validation, body limits, service tokens, request ids. */

export * from "./access-log.ts";
export * from "./body-limit.ts";
export * from "./errors.ts";
export * from "./etag.ts";
export * from "./metrics.ts";
export * from "./openapi.ts";
export * from "./problem.ts";
export * from "./request-id.ts";
export * from "./route.ts";
export * from "./runtime-env.ts";
export * from "./serve.ts";
export * from "./service-metrics.ts";
export * from "./service-token.ts";
export * from "./storable-text.ts";
