import { controlRoute } from "../../../http/route.ts";
import { CreateOrganizationInput, Organization } from "../../../organizations/schemas.ts";
import { createOrganization } from "../../../verbs/platform.ts";

export const platformCreateOrganizationRoute = controlRoute(
  {
    method: "post",
    path: "/api/platform/organizations",
    operationId: "platformCreateOrganization",
    tags: ["platform"],
    who: "signed-in",
    body: CreateOrganizationInput,
    output: { schema: Organization, status: 201, description: "Created" },
    problems: { 409: "Slug taken" },
  },
  ({ ctx, body }) => createOrganization({ ctx, input: body }),
);
