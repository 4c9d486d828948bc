import type { ElementType } from "../metamodel/index.ts";
import { ICONS as I } from "./icons.ts";
import type { ElementNotation, Icon, PaletteKey, ShapeKind } from "./types.ts";

const e = (shape: ShapeKind, palette: PaletteKey, icon: Icon): ElementNotation => ({ shape, palette, icon });

/**
 * Notation of every ArchiMate 3.1 element type, keyed by its exchange-format name (`ApplicationComponent`, ...).
 * Active structure is square, behaviour rounded, services pills, events notched, motivation chamfered.
 * `Junction` is an alias drawn as an And junction, for sources that do not say which kind.
 */
export const ELEMENT_NOTATION = {
  // Strategy
  Resource: e("rect", "strategy", I.RESOURCE),
  Capability: e("rounded", "strategy", I.CAPABILITY),
  ValueStream: e("rounded", "strategy", I.VALUE_STREAM),
  CourseOfAction: e("rounded", "strategy", I.COURSE_OF_ACTION),
  // Business
  BusinessActor: e("rect", "business", I.ACTOR),
  BusinessRole: e("rect", "business", I.ROLE),
  BusinessCollaboration: e("rect", "business", I.COLLABORATION),
  BusinessInterface: e("rect", "business", I.INTERFACE),
  BusinessProcess: e("rounded", "business", I.PROCESS),
  BusinessFunction: e("rounded", "business", I.FUNCTION),
  BusinessInteraction: e("rounded", "business", I.INTERACTION),
  BusinessEvent: e("event", "business", I.EVENT),
  BusinessService: e("pill", "business", I.SERVICE),
  BusinessObject: e("rect", "business", I.OBJECT),
  Contract: e("rect", "business", I.CONTRACT),
  Representation: e("wave", "business", I.REPRESENTATION),
  Product: e("rect", "business", I.PRODUCT),
  // Application
  ApplicationComponent: e("rect", "application", I.COMPONENT),
  ApplicationCollaboration: e("rect", "application", I.COLLABORATION),
  ApplicationInterface: e("rect", "application", I.INTERFACE),
  ApplicationFunction: e("rounded", "application", I.FUNCTION),
  ApplicationInteraction: e("rounded", "application", I.INTERACTION),
  ApplicationProcess: e("rounded", "application", I.PROCESS),
  ApplicationEvent: e("event", "application", I.EVENT),
  ApplicationService: e("pill", "application", I.SERVICE),
  DataObject: e("rect", "application", I.OBJECT),
  // Technology
  Node: e("box3d", "technology", I.NODE),
  Device: e("rect", "technology", I.DEVICE),
  SystemSoftware: e("rect", "technology", I.SYSTEM_SOFTWARE),
  TechnologyCollaboration: e("rect", "technology", I.COLLABORATION),
  TechnologyInterface: e("rect", "technology", I.INTERFACE),
  Path: e("rect", "technology", I.PATH),
  CommunicationNetwork: e("rect", "technology", I.COMMUNICATION_NETWORK),
  TechnologyFunction: e("rounded", "technology", I.FUNCTION),
  TechnologyProcess: e("rounded", "technology", I.PROCESS),
  TechnologyInteraction: e("rounded", "technology", I.INTERACTION),
  TechnologyEvent: e("event", "technology", I.EVENT),
  TechnologyService: e("pill", "technology", I.SERVICE),
  Artifact: e("rect", "technology", I.ARTIFACT),
  // Physical
  Equipment: e("rect", "physical", I.EQUIPMENT),
  Facility: e("rect", "physical", I.FACILITY),
  DistributionNetwork: e("rect", "physical", I.DISTRIBUTION_NETWORK),
  Material: e("rect", "physical", I.MATERIAL),
  // Motivation
  Stakeholder: e("cut", "motivation", I.STAKEHOLDER),
  Driver: e("cut", "motivation", I.DRIVER),
  Assessment: e("cut", "motivation", I.ASSESSMENT),
  Goal: e("cut", "motivation", I.GOAL),
  Outcome: e("cut", "motivation", I.OUTCOME),
  Principle: e("cut", "motivation", I.PRINCIPLE),
  Requirement: e("cut", "motivation", I.REQUIREMENT),
  Constraint: e("cut", "motivation", I.CONSTRAINT),
  Meaning: e("cut", "motivation", I.MEANING),
  Value: e("cut", "motivation", I.VALUE),
  // Implementation and migration
  WorkPackage: e("rounded", "implementation", I.WORK_PACKAGE),
  Deliverable: e("wave", "implementation", I.DELIVERABLE),
  ImplementationEvent: e("event", "implementation", I.EVENT),
  Plateau: e("rect", "migration", I.PLATEAU),
  Gap: e("rect", "migration", I.GAP),
  // Composite and connectors
  Grouping: e("tab", "grouping", I.GROUPING),
  Location: e("rect", "location", I.LOCATION),
  AndJunction: e("junction", "junction", I.JUNCTION),
  OrJunction: { shape: "junction", palette: "junction", icon: I.OR_JUNCTION, hollow: true },
  Junction: e("junction", "junction", I.JUNCTION),
} as const satisfies Record<ElementType | "Junction", ElementNotation>;

export type NotatedElementType = keyof typeof ELEMENT_NOTATION;

/** Shown for a type the table does not know (never an error): a plain white box without icon. */
export const UNKNOWN_ELEMENT_NOTATION: ElementNotation = { shape: "rect", palette: "other", icon: [] };

export function elementNotation(type: string): ElementNotation {
  return Object.hasOwn(ELEMENT_NOTATION, type)
    ? ELEMENT_NOTATION[type as NotatedElementType]
    : UNKNOWN_ELEMENT_NOTATION;
}
