/**
 * What the browser UI may take from this package: the metamodel (types, layers, the relationship table,
 * viewpoints) and the notation. No Node built-ins, no secrets code; the UI bundle resolves `@ams/shared` here.
 */
export * from "./metamodel/index.ts";
export * from "./notation/index.ts";
export * from "./password-policy.ts";
