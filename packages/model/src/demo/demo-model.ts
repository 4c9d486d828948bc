import { escapeXml } from "../render/escape.ts";

/**
 * The sample model a new user sees in the demo organization: a small, fictional insurer handling car damage
 * claims, written for this project (no third-party content). Every relationship is one the ArchiMate 3.1 table
 * allows, so it imports without warnings; four views show it from the usual angles.
 */

type E = [id: string, type: string, name: string, documentation?: string];
type R = [id: string, type: string, source: string, target: string, extra?: string];

const elements: E[] = [
  ["e-customer", "BusinessActor", "Customer", "A private person insuring a car with us."],
  ["e-insurant", "BusinessRole", "Insurant"],
  ["e-insurer", "BusinessRole", "Insurer"],
  ["e-damage", "BusinessEvent", "Damage occurred"],
  ["e-handle", "BusinessProcess", "Handle claim", "From the first report of a damage to the payment."],
  ["e-register", "BusinessProcess", "Register"],
  ["e-accept", "BusinessProcess", "Accept"],
  ["e-valuate", "BusinessProcess", "Valuate"],
  ["e-pay", "BusinessProcess", "Pay"],
  ["e-svc-registration", "BusinessService", "Claim registration service"],
  ["e-svc-payment", "BusinessService", "Claims payment service"],
  ["e-claim", "BusinessObject", "Claim"],
  ["e-contract", "Contract", "Insurance contract"],
  ["e-product", "Product", "Car insurance"],
  ["e-portal", "ApplicationComponent", "Web portal"],
  ["e-portal-ui", "ApplicationInterface", "Customer portal"],
  ["e-crm", "ApplicationComponent", "CRM system"],
  ["e-policy", "ApplicationComponent", "Policy administration"],
  ["e-finance", "ApplicationComponent", "Financial application"],
  ["e-as-customer", "ApplicationService", "Customer administration service"],
  ["e-as-claims", "ApplicationService", "Claims administration service"],
  ["e-as-payment", "ApplicationService", "Payment service"],
  ["e-customer-file", "DataObject", "Customer file"],
  ["e-claim-file", "DataObject", "Claim file"],
  ["e-mainframe", "Node", "Mainframe"],
  ["e-dbms", "SystemSoftware", "DBMS"],
  ["e-servers", "Node", "Unix server farm"],
  ["e-mq", "SystemSoftware", "Message queuing"],
  ["e-ts-claims", "TechnologyService", "Claim files service"],
  ["e-ts-customer", "TechnologyService", "Customer files service"],
  ["e-lan", "CommunicationNetwork", "Office LAN"],
  ["e-board", "Stakeholder", "Board"],
  ["e-driver", "Driver", "Customer satisfaction"],
  ["e-goal", "Goal", "Faster claim handling"],
  ["e-req", "Requirement", "Register claims online"],
  ["e-plateau-now", "Plateau", "Claims today"],
  ["e-plateau-2027", "Plateau", "Online claims (2027)"],
  ["e-gap-online", "Gap", "Online claim registration"],
];

/** How critical each system is to claim handling (property Criticality): what a heatmap of the views colours. */
const criticality: Record<string, string> = {
  "e-mainframe": "High",
  "e-policy": "High",
  "e-ts-claims": "High",
  "e-dbms": "High",
  "e-crm": "Medium",
  "e-finance": "Medium",
  "e-servers": "Medium",
  "e-ts-customer": "Medium",
  "e-portal": "Low",
  "e-mq": "Low",
  "e-as-customer": "Medium",
  "e-as-claims": "High",
  "e-as-payment": "Medium",
};

const relationships: R[] = [
  ["r-1", "Assignment", "e-customer", "e-insurant"],
  ["r-2", "Serving", "e-svc-registration", "e-insurant"],
  ["r-3", "Serving", "e-svc-payment", "e-insurant"],
  ["r-4", "Triggering", "e-damage", "e-handle"],
  ["r-5", "Composition", "e-handle", "e-register"],
  ["r-6", "Composition", "e-handle", "e-accept"],
  ["r-7", "Composition", "e-handle", "e-valuate"],
  ["r-8", "Composition", "e-handle", "e-pay"],
  ["r-9", "Triggering", "e-register", "e-accept"],
  ["r-10", "Triggering", "e-accept", "e-valuate"],
  ["r-11", "Triggering", "e-valuate", "e-pay"],
  ["r-12", "Realization", "e-register", "e-svc-registration"],
  ["r-13", "Realization", "e-pay", "e-svc-payment"],
  ["r-14", "Assignment", "e-insurer", "e-handle"],
  ["r-15", "Access", "e-handle", "e-claim", ' accessType="Write"'],
  ["r-16", "Realization", "e-claim-file", "e-claim"],
  ["r-17", "Serving", "e-as-customer", "e-register"],
  ["r-18", "Serving", "e-as-claims", "e-accept"],
  ["r-19", "Serving", "e-as-claims", "e-valuate"],
  ["r-20", "Serving", "e-as-payment", "e-pay"],
  ["r-21", "Realization", "e-crm", "e-as-customer"],
  ["r-22", "Realization", "e-policy", "e-as-claims"],
  ["r-23", "Realization", "e-finance", "e-as-payment"],
  ["r-24", "Composition", "e-portal", "e-portal-ui"],
  ["r-25", "Serving", "e-portal-ui", "e-customer"],
  ["r-26", "Flow", "e-portal", "e-crm"],
  ["r-27", "Flow", "e-portal", "e-policy"],
  ["r-28", "Flow", "e-policy", "e-finance"],
  ["r-29", "Access", "e-crm", "e-customer-file", ' accessType="ReadWrite"'],
  ["r-30", "Access", "e-policy", "e-claim-file", ' accessType="ReadWrite"'],
  ["r-31", "Composition", "e-mainframe", "e-dbms"],
  ["r-32", "Realization", "e-mainframe", "e-ts-claims"],
  ["r-33", "Serving", "e-ts-claims", "e-policy"],
  ["r-34", "Composition", "e-servers", "e-mq"],
  ["r-35", "Realization", "e-servers", "e-ts-customer"],
  ["r-36", "Serving", "e-ts-customer", "e-crm"],
  ["r-37", "Association", "e-lan", "e-mainframe"],
  ["r-38", "Association", "e-lan", "e-servers"],
  ["r-39", "Association", "e-board", "e-driver"],
  ["r-40", "Influence", "e-driver", "e-goal", ""],
  ["r-41", "Realization", "e-req", "e-goal"],
  ["r-42", "Realization", "e-portal", "e-req"],
  ["r-43", "Aggregation", "e-product", "e-svc-registration"],
  ["r-44", "Aggregation", "e-product", "e-contract"],
  ["r-45", "Association", "e-contract", "e-claim"],
  // Two plateaus: today's landscape and the target one with the web portal; the gap between them.
  ["r-46", "Composition", "e-plateau-now", "e-mainframe"],
  ["r-47", "Composition", "e-plateau-now", "e-policy"],
  ["r-48", "Composition", "e-plateau-now", "e-crm"],
  ["r-49", "Composition", "e-plateau-now", "e-finance"],
  ["r-50", "Composition", "e-plateau-2027", "e-policy"],
  ["r-51", "Composition", "e-plateau-2027", "e-crm"],
  ["r-52", "Composition", "e-plateau-2027", "e-finance"],
  ["r-53", "Composition", "e-plateau-2027", "e-portal"],
  ["r-54", "Composition", "e-plateau-2027", "e-servers"],
  ["r-55", "Triggering", "e-plateau-now", "e-plateau-2027"],
  ["r-56", "Association", "e-gap-online", "e-plateau-now"],
  ["r-57", "Association", "e-gap-online", "e-plateau-2027"],
];

/** A view: nodes at absolute positions (children inside their parent's box), connections drawn between them. */
type Place = [element: string, x: number, y: number, w?: number, h?: number, children?: Place[]];
type DemoView = { id: string; name: string; viewpoint: string; places: Place[] };

const row = (y: number, ids: string[], x0 = 40, step = 160): Place[] => ids.map((id, i) => [id, x0 + i * step, y]);

const views: DemoView[] = [
  {
    id: "v-layered",
    name: "Claim handling (layered)",
    viewpoint: "Layered",
    places: [
      ...row(20, ["e-customer", "e-insurant"], 200, 180),
      ...row(110, ["e-svc-registration", "e-svc-payment"], 200, 360),
      ["e-damage", 20, 210],
      ["e-handle", 170, 190, 620, 110, row(220, ["e-register", "e-accept", "e-valuate", "e-pay"], 185, 150)],
      ...row(340, ["e-as-customer", "e-as-claims", "e-as-payment"], 185, 225),
      ...row(440, ["e-crm", "e-policy", "e-finance"], 185, 225),
      ...row(540, ["e-ts-customer", "e-ts-claims"], 300, 225),
      ...row(640, ["e-servers", "e-mainframe"], 300, 225),
    ],
  },
  {
    id: "v-apps",
    name: "Application cooperation",
    viewpoint: "Application Cooperation",
    places: [
      ["e-portal", 40, 40, 140, 60],
      ["e-crm", 300, 40, 140, 60],
      ["e-policy", 300, 180, 140, 60],
      ["e-finance", 560, 180, 140, 60],
      ["e-customer-file", 560, 40],
      ["e-claim-file", 300, 320],
    ],
  },
  {
    id: "v-motivation",
    name: "Why online claims",
    viewpoint: "Goal Realization",
    places: [...row(30, ["e-board", "e-driver", "e-goal"], 40, 200), ["e-req", 440, 140], ["e-portal", 440, 250]],
  },
  {
    id: "v-infra",
    name: "Infrastructure",
    viewpoint: "Technology",
    places: [
      ["e-lan", 200, 20, 320, 55],
      ["e-servers", 60, 130, 220, 150, [["e-mq", 90, 190]]],
      ["e-mainframe", 420, 130, 220, 150, [["e-dbms", 470, 190]]],
      ...row(330, ["e-ts-customer", "e-ts-claims"], 110, 350),
    ],
  },
];

function viewXml(v: DemoView): string {
  const shown = new Map<string, string>();
  let n = 0;
  const nodes = (places: Place[]): string =>
    places
      .map(([el, x, y, w = 120, h = 55, children = []]) => {
        const id = `${v.id}-n${++n}`;
        shown.set(el, id);
        return `<node identifier="${id}" elementRef="${el}" xsi:type="Element" x="${x}" y="${y}" w="${w}" h="${h}">${nodes(children)}</node>`;
      })
      .join("");
  const body = nodes(v.places);
  const conns = relationships
    .filter(([, type, s, t]) => shown.has(s) && shown.has(t) && type !== "Composition")
    .map(
      ([id, , s, t]) =>
        `<connection identifier="${v.id}-${id}" relationshipRef="${id}" xsi:type="Relationship" source="${shown.get(s)}" target="${shown.get(t)}"/>`,
    )
    .join("");
  return `<view identifier="${v.id}" xsi:type="Diagram" viewpoint="${v.viewpoint}"><name xml:lang="en">${escapeXml(v.name)}</name>${body}${conns}</view>`;
}

export const DEMO_MODEL_NAME = "Car insurance claims";

/** The sample model as an Open Exchange document (ArchiMate 3.1), ready for the import verb. */
export function demoModelXml(): string {
  const els = elements
    .map(
      ([id, type, name, doc]) =>
        `<element identifier="${id}" xsi:type="${type}"><name xml:lang="en">${escapeXml(name)}</name>${doc ? `<documentation xml:lang="en">${escapeXml(doc)}</documentation>` : ""}${criticality[id] ? `<properties><property propertyDefinitionRef="pd-criticality"><value xml:lang="en">${criticality[id]}</value></property></properties>` : ""}</element>`,
    )
    .join("");
  const rels = relationships
    .map(
      ([id, type, s, t, extra = ""]) =>
        `<relationship identifier="${id}" source="${s}" target="${t}" xsi:type="${type}"${extra}/>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="demo-car-insurance">` +
    `<name xml:lang="en">${DEMO_MODEL_NAME}</name>` +
    `<documentation xml:lang="en">A fictional insurer handling car damage claims: the demo model of this service.</documentation>` +
    `<elements>${els}</elements><relationships>${rels}</relationships>` +
    `<propertyDefinitions><propertyDefinition identifier="pd-criticality" type="string"><name xml:lang="en">Criticality</name></propertyDefinition></propertyDefinitions>` +
    `<views><diagrams>${views.map(viewXml).join("")}</diagrams></views></model>`
  );
}
