export * from "./change-feed.ts";
export * from "./read-events.ts";
export * from "./schemas.ts";
