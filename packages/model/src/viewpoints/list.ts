import { VIEWPOINTS } from "@ams/shared";
import { requireCapability, type Verb } from "../context.ts";

export function listViewpoints({ ctx }: Verb) {
  requireCapability(ctx, "model:read");
  return VIEWPOINTS;
}
