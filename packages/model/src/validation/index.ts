export { MAX_PATTERN_LENGTH, unsafePattern } from "./pattern.ts";
export * from "./rules.ts";
export * from "./schemas.ts";
export * from "./validate.ts";
