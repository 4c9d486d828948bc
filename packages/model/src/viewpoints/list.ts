import { VIEWPOINTS } from "@ams/shared";
import { requireCapability, type Verb } from "../context.ts";
import type { ViewpointInfo } from "../views/outputs.ts";

export function listViewpoints({ ctx }: Verb): readonly ViewpointInfo[] {
  requireCapability(ctx, "model:read");
  return VIEWPOINTS;
}
