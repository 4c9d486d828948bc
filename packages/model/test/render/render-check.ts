// Visual check: ./pnpm exec node packages/model/test/render/render-check.ts, then convert /tmp/render-*.svg to PNG.
import { writeFileSync } from "node:fs";
import { ELEMENT_TYPES } from "@ams/shared";
import { renderViewSvg } from "../../src/render/render-view.ts";
import { galleryView, sampleView } from "./sample-view.ts";

const pluginSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="48" height="48"><rect x="2" y="2" width="20" height="20" rx="4" fill="#f90"/><path d="M7 17L12 6l5 11" stroke="#fff" stroke-width="2" fill="none"/></svg>`;
const resolveIcon = (value: string) => (value === "aws-lambda" ? { svg: pluginSvg } : undefined);
writeFileSync("/tmp/render-check.svg", renderViewSvg(sampleView(), { resolveIcon }));
writeFileSync("/tmp/render-gallery.svg", renderViewSvg(galleryView(ELEMENT_TYPES.map((t) => t.name))));
console.log("wrote /tmp/render-check.svg and /tmp/render-gallery.svg");
