import { VIEWPOINTS } from "@ams/shared";
import { type RequestContext, requireCapability } from "../context.ts";

export function listViewpoints({ ctx }: { ctx: RequestContext }) {
  requireCapability(ctx, "model:read");
  return VIEWPOINTS;
}
