export * from "./definition.ts";
export * from "./list-item.ts";
export * from "./provision.ts";
export { toDashboard } from "./store.ts";
export * from "./verbs.ts";
export * from "./visualizations.ts";
