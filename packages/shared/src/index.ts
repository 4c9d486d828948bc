export * from "./errors.ts";
export * from "./health.ts";
export * from "./hs256.ts";
export * from "./metamodel/index.ts";
export * from "./notation/index.ts";
export * from "./roles.ts";
export * from "./service-token.ts";
export * from "./svg-sanitize.ts";
