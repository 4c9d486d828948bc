import type { z } from "zod";
import { Element } from "./elements/schemas.ts";
import { DashboardListItem } from "./graph/dashboards/list-item.ts";
import { pageOf } from "./list-shape.ts";
import { PropertyDefinition } from "./property-definitions/schemas.ts";
import { Relationship } from "./relationships/schemas.ts";
import { ViewSummary } from "./views/outputs.ts";
import { ViewReference } from "./views/schemas.ts";

/** Windows of the model's lists, read in the database (the page verbs, behind MCP's paged list tools). */
export const ElementPage = pageOf(Element);
export type ElementPage = z.infer<typeof ElementPage>;
export const RelationshipPage = pageOf(Relationship);
export type RelationshipPage = z.infer<typeof RelationshipPage>;
export const ViewSummaryPage = pageOf(ViewSummary);
export type ViewSummaryPage = z.infer<typeof ViewSummaryPage>;
export const ViewReferencePage = pageOf(ViewReference);
export type ViewReferencePage = z.infer<typeof ViewReferencePage>;
export const PropertyDefinitionPage = pageOf(PropertyDefinition);
export type PropertyDefinitionPage = z.infer<typeof PropertyDefinitionPage>;
export const DashboardListPage = pageOf(DashboardListItem);
export type DashboardListPage = z.infer<typeof DashboardListPage>;
