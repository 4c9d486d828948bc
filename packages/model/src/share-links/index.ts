export * from "./schemas.ts";
export * from "./serve.ts";
export * from "./verbs.ts";
