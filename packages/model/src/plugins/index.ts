export * from "./catalog.ts";
export * from "./load-catalog.ts";
export * from "./manifest.ts";
export * from "./registry.ts";
export * from "./resolve-icon.ts";
export * from "./schemas.ts";
export * from "./verbs.ts";
