/** The view renderer without any database code: safe to bundle into the browser UI. */

export { heatScale, PALETTES, type Palette } from "./heat-scale.ts";
export { drawingOrder, layoutBoxes, renderViewSvg } from "./render-view.ts";
export type { Box, Point } from "./route.ts";
export { createSceneRenderer, type DrawnConnection, type SceneRenderer } from "./scene.ts";
export type { IconResolver, RenderConnection, RenderInput, RenderNode, RenderOptions } from "./types.ts";
