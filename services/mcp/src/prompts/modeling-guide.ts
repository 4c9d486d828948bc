import { ELEMENT_TYPES, LAYERS, RELATIONSHIP_TYPES } from "@ams/shared";
import { RELATIONSHIP_MEANINGS } from "../resources/metamodel.ts";

/** What belongs in each layer, in a sentence an assistant can act on. */
const LAYER_PURPOSE: Record<string, string> = {
  Business:
    "the organization: who (actors, roles, collaborations), what they do (processes, functions, events), what they offer (business services, products) and the information they handle (business objects, contracts).",
  Application:
    "software: application components and their interfaces, the application behavior they perform, the application services they offer, and the data objects they use.",
  Technology:
    "the infrastructure that runs the software: nodes, devices, system software, networks, technology services, and the artifacts deployed on them.",
  Physical: "the physical world: equipment, facilities, distribution networks and materials.",
  Motivation:
    "why: stakeholders, drivers, assessments, goals, outcomes, principles, requirements, constraints, meaning and value.",
  Strategy: "what the enterprise intends: capabilities, resources, value streams and courses of action.",
  Implementation: "change: work packages, deliverables, implementation events, plateaus and gaps between them.",
  Composite: "cross-cutting: grouping, location, and junctions (And/Or) that combine relationships of one type.",
};

const typesOf = (layer: string) =>
  ELEMENT_TYPES.filter((t) => t.layer === layer)
    .map((t) => t.label)
    .join(", ");

let text: string | undefined;

/** The archimate-modeling-guide prompt, generated from the metamodel so it always names the real types. */
export function modelingGuide(): string {
  text ??= [
    "# ArchiMate 3.1 modeling guide for this service",
    "",
    "You are editing an ArchiMate 3.1 model through MCP tools. Every change is saved at once (save_model is a no-op).",
    "Start with get_model_info to see the active workspace and its size; list_workspaces / activate_workspace switch workspaces.",
    "",
    "## Layers and what belongs in each",
    ...LAYERS.map((layer) => `- **${layer}**: ${LAYER_PURPOSE[layer] ?? ""}\n  Types: ${typesOf(layer)}.`),
    "The resource archimate://layers lists the same as JSON (exchange names such as ApplicationComponent and display labels).",
    "",
    "## Choosing an element type",
    "1. Decide the layer: is it about the business, software, infrastructure, physical things, motivation, strategy or change?",
    "2. Decide the aspect: active structure (who/what acts: actor, role, component, node, device, interface), behavior " +
      "(what is done: process, function, interaction, event, service) or passive structure (what is acted on: business object, data object, artifact).",
    "3. Internal behavior (process = ordered steps with a result, function = grouping by skill or resource, interaction = done together) " +
      "versus external behavior (service = what is offered to others, described from the user's side).",
    "4. Prefer the specific type over Grouping or Association; do not model the same thing twice: search first with list_elements (name filter).",
    "create_element accepts the exchange name (ApplicationComponent) or the display name (Application Component).",
    "",
    "## Relationships",
    ...RELATIONSHIP_TYPES.map((t) => `- **${t.name}**: ${RELATIONSHIP_MEANINGS[t.name] ?? ""}.`),
    "Which types are allowed depends on the source and target element types. The resource archimate://relationships holds " +
      "the full ArchiMate 3.1 table as allowed[source type][target type] = [types]. Check it before create_relationship; " +
      "the tool refuses a disallowed combination and its error lists the allowed types.",
    "Typical patterns: Application Component -Realization-> Application Service -Serving-> Business Process; " +
      "Business Actor -Assignment-> Business Role -Assignment-> Business Process; Application Component -Assignment-> Application Function; " +
      "Node -Assignment-> System Software; Artifact -Realization-> Application Component; Application Process -Access-> Data Object; " +
      "Work Package -Realization-> Deliverable; Requirement -Realization-> Goal.",
    "Relationships point from the more concrete / providing side to the more abstract / using side (realizer to realized, server to served).",
    "",
    "## Naming conventions",
    "- Active structure and passive structure: singular nouns (Customer, Claims System, Policy Data).",
    "- Processes and functions: verb + noun (Handle Claim, Manage Customer Data); events: past tense or state (Claim Received).",
    "- Services: what is offered, often a noun or a gerund (Claims Registration Service, Customer Information Service).",
    "- Goals and outcomes: the desired state (Reduced Claim Handling Time); requirements: 'must'/'should' statements.",
    "- Use the same language and capitalization across the model; keep names short and put detail in documentation.",
    "",
    "## Building a view",
    "1. create_view {name, viewpoint?} (list_viewpoints names the viewpoints; the create-viewpoint-view prompt guides one).",
    "2. create_element for each missing concept (reuse existing ones: list_elements with name/type filters).",
    "3. create_node {view_id, element_id, x, y, w, h} for each element. Default size 120 x 55. Lay out in rows by layer: " +
      "business at the top (y about 20-200), application in the middle, technology at the bottom; leave about 40 px between nodes. " +
      "To nest (e.g. a component inside a node) give parent_id and coordinates inside the parent's box (view coordinates).",
    "4. create_relationship {type, source, target} between the elements (check archimate://relationships first).",
    "5. create_connection {view_id, source: source node id, target: target node id, relationship_id} to draw each relationship.",
    "6. render_view {view_id} and look at the SVG: fix overlaps with update_node (x, y, w, h) and missing lines with create_connection.",
    "get_view shows the nodes (ids, positions) and connections of a view; get_element_relationships shows what an element is related to.",
    "",
    "## Other tools",
    "- Properties: list_property_definitions, create_property_definition, then `properties: {Name: value}` on create/update of elements, relationships and views.",
    '- Exchange: export_model returns Open Exchange XML; import_model {xml} replaces the whole model of the active workspace. With format "csv" both use Archi\'s CSV files (elements, relations, properties); a CSV import merges by ID instead of replacing.',
    "- Viewer tokens can use every read tool; changes need the editor or owner role.",
  ].join("\n");
  return text;
}
