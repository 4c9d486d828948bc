export * from "./colors.ts";
export * from "./elements.ts";
export * from "./geometry.ts";
export { ICON_BOX, ICON_STROKE, ICONS } from "./icons.ts";
export * from "./relationships.ts";
export type * from "./types.ts";
