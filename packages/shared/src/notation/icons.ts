import type { Icon } from "./types.ts";

/**
 * The default type icons, our own drawings of the standard ArchiMate 3.1 icons, in a 16x16 box.
 * Layers share a motif where the standard does (a role looks the same in business and technology).
 */
export const ICON_BOX = 16;
export const ICON_STROKE = 1.1;

const n = (v: number) => Math.round(v * 100) / 100;

/** A full circle as path data (two arcs), so every icon stays a list of paths. */
const circle = (cx: number, cy: number, r: number) =>
  `M${n(cx + r)} ${n(cy)}A${r} ${r} 0 1 1 ${n(cx - r)} ${n(cy)}A${r} ${r} 0 1 1 ${n(cx + r)} ${n(cy)}Z`;

/** A toothed wheel: `teeth` flat teeth between radii r and R. */
function gear(cx: number, cy: number, r: number, R: number, teeth: number): string {
  const parts: string[] = [];
  const step = (Math.PI * 2) / teeth;
  for (let i = 0; i < teeth; i++) {
    const a = i * step;
    const pts = [
      [r, a - step * 0.3],
      [R, a - step * 0.18],
      [R, a + step * 0.18],
      [r, a + step * 0.3],
    ];
    for (const [rad = 0, ang = 0] of pts) {
      parts.push(`${parts.length === 0 ? "M" : "L"}${n(cx + rad * Math.cos(ang))} ${n(cy + rad * Math.sin(ang))}`);
    }
  }
  return parts.join("") + "Z";
}

const ACTOR: Icon = [{ d: circle(8, 3.5, 2.3) + "M8 5.8V10.6M3.8 7.6H12.2M4.4 15L8 10.6L11.6 15" }];
/** A cylinder lying on its side. */
const ROLE: Icon = [
  { d: "M12 3.5H4.5A2 4.5 0 0 0 4.5 12.5H12" },
  { d: "M12 3.5A2 4.5 0 0 1 12 12.5A2 4.5 0 0 1 12 3.5Z", paint: "body" },
];
const COLLABORATION: Icon = [{ d: circle(5.8, 8, 4.2) + circle(10.2, 8, 4.2) }];
/** A lollipop. */
const INTERFACE: Icon = [{ d: "M1 8H7.6" + circle(11, 8, 3.4) }];
const PROCESS: Icon = [{ d: "M1 6H9.5V2.8L15 8L9.5 13.2V10H1Z" }];
/** A bookmark chevron pointing up. */
const FUNCTION: Icon = [{ d: "M2.5 5.5L8 1.5L13.5 5.5V14.5L8 10.5L2.5 14.5Z" }];
/** A circle split in two halves. */
const INTERACTION: Icon = [{ d: "M7 2.5A5.5 5.5 0 0 0 7 13.5Z" }, { d: "M9 2.5A5.5 5.5 0 0 1 9 13.5Z" }];
/** Notched on the left, rounded on the right. */
const EVENT: Icon = [{ d: "M1.5 3.5H11A3.5 4.5 0 0 1 11 12.5H1.5A2.2 4.5 0 0 0 1.5 3.5Z" }];
const SERVICE: Icon = [{ d: "M5 4.5H11A3.5 3.5 0 0 1 11 11.5H5A3.5 3.5 0 0 1 5 4.5Z" }];
const OBJECT: Icon = [{ d: "M1.5 3H14.5V13H1.5ZM1.5 6H14.5" }];
const CONTRACT: Icon = [{ d: "M1.5 3H14.5V13H1.5ZM1.5 6H14.5M1.5 9.8H14.5" }];
const REPRESENTATION: Icon = [{ d: "M1.5 3H14.5V12Q11.25 9.6 8 12T1.5 12ZM1.5 6H14.5" }];
const PRODUCT: Icon = [{ d: "M1.5 3H14.5V13H1.5ZM1.5 6H8V3" }];
/** A box with two tabs on its left side. */
const COMPONENT: Icon = [{ d: "M5 1.5H14.5V14.5H5Z" }, { d: "M2.5 4H7.5V6.8H2.5ZM2.5 9.2H7.5V12H2.5Z", paint: "body" }];
const NODE: Icon = [{ d: "M1.5 5H11V14.5H1.5ZM1.5 5L5 1.5H14.5V11L11 14.5M11 5L14.5 1.5" }];
/** A screen on a keyboard. */
const DEVICE: Icon = [{ d: "M3 1.5H13V9.5H3ZM3 9.5L1 14H15L13 9.5" }];
/** Two discs, one behind the other. */
const SYSTEM_SOFTWARE: Icon = [{ d: circle(9.8, 6.2, 4.6) }, { d: circle(6.2, 9.8, 4.6), paint: "body" }];
/** A page with a folded corner. */
const ARTIFACT: Icon = [{ d: "M3 1H10L13.5 4.5V15H3ZM10 1V4.5H13.5" }];
const COMMUNICATION_NETWORK: Icon = [
  { d: "M4 9.5H12M4 9.5L1 13M12 9.5L15 6" },
  { d: circle(4, 9.5, 1.6) + circle(12, 9.5, 1.6), paint: "ink" },
];
/** A dashed line with open arrowheads at both ends. */
const PATH: Icon = [{ d: "M4 4.5L1 8L4 11.5M12 4.5L15 8L12 11.5M1.5 8H4M6.5 8H9.5M12 8H14.5" }];
const EQUIPMENT: Icon = [
  { d: gear(6, 10, 3.3, 4.8, 8) + circle(6, 10, 1.4) },
  { d: gear(11.8, 4.2, 2.1, 3.3, 6) + circle(11.8, 4.2, 0.9) },
];
/** A factory with a saw-tooth roof and a chimney. */
const FACILITY: Icon = [{ d: "M1 15V6.5L4.8 9.3V6.5L8.6 9.3V6.5L12 9V1.5H14.8V15Z" }];
const DISTRIBUTION_NETWORK: Icon = [{ d: "M3 6H13M3 10H13M4.5 3L1 8L4.5 13M11.5 3L15 8L11.5 13" }];
const MATERIAL: Icon = [
  { d: "M4.5 2H11.5L15 8L11.5 14H4.5L1 8Z" },
  { d: "M5.4 3.7H10.6M13 8.6L10.8 12.3M5.2 12.3L3 8.6" },
];
const DRIVER: Icon = [
  { d: circle(8, 8, 5.3) + "M8 0.8V15.2M0.8 8H15.2M2.9 2.9L13.1 13.1M13.1 2.9L2.9 13.1" },
  { d: circle(8, 8, 1.8), paint: "ink" },
];
/** A magnifying glass. */
const ASSESSMENT: Icon = [{ d: circle(6.3, 6.3, 4.6) + "M9.6 9.6L15 15" }];
/** A target. */
const GOAL: Icon = [{ d: circle(8, 8, 6.5) + circle(8, 8, 3.8) }, { d: circle(8, 8, 1.3), paint: "ink" }];
/** A target hit by an arrow. */
const OUTCOME: Icon = [
  { d: circle(7, 9, 5.8) + circle(7, 9, 3.2) + "M7 9L14.5 1.5M11 1.5H14.5V5" },
  { d: circle(7, 9, 1.1), paint: "ink" },
];
const PRINCIPLE: Icon = [
  { d: "M2.5 1.5H13.5V14.5H2.5Z" },
  { d: "M7.1 3.5H8.9L8.5 9.8H7.5Z" + circle(8, 12, 1), paint: "ink" },
];
/** A parallelogram. */
const REQUIREMENT: Icon = [{ d: "M4.5 3.5H15.5L11.5 12.5H0.5Z" }];
const CONSTRAINT: Icon = [{ d: "M4.5 3.5H15.5L11.5 12.5H0.5ZM8 3.5L4 12.5" }];
/** A cloud. */
const MEANING: Icon = [
  {
    d: "M4 12.5C1.2 12.5 1 8.6 3.7 8.3C3.2 5.3 6.8 4.3 8 6C8.8 3.3 13.2 3.6 12.8 6.8C15.5 7.3 15.2 11.7 12.4 11.8C11.7 14.1 8.3 14.2 7.6 12.4C6.5 13.3 5 13.2 4 12.5Z",
  },
];
const VALUE: Icon = [{ d: "M15 8A7 4.5 0 1 1 1 8A7 4.5 0 1 1 15 8Z" }];
const STAKEHOLDER: Icon = ROLE;
/** A battery: a box with a cap and cells. */
const RESOURCE: Icon = [{ d: "M1 4.5H12.5V11.5H1ZM12.5 6.6H14.8V9.4H12.5M4 6.3V9.7M6.7 6.3V9.7M9.4 6.3V9.7" }];
/** A staircase of cells. */
const CAPABILITY: Icon = [
  { d: "M1.5 14.5H14.5V1.5H10.2V5.8H5.8V10.2H1.5ZM5.8 10.2V14.5M10.2 5.8V14.5M5.8 10.2H14.5M10.2 5.8H14.5" },
];
/** A notched arrow. */
const VALUE_STREAM: Icon = [{ d: "M1 3.5H11L15 8L11 12.5H1L5 8Z" }];
const COURSE_OF_ACTION: Icon = [
  { d: circle(10.5, 5.5, 4.5) + circle(10.5, 5.5, 2.2) + "M1 15Q2.2 9.4 7.2 8.6M5.2 6.9L7.4 8.6L5.6 10.8" },
  { d: circle(10.5, 5.5, 0.8), paint: "ink" },
];
/** A loop with an arrowhead. */
const WORK_PACKAGE: Icon = [{ d: "M8 2.5A5.5 5.5 0 1 0 13.5 8M11.2 10.4L13.5 7.6L15.8 10.4" }];
const DELIVERABLE: Icon = [{ d: "M1.5 2H14.5V12Q11.25 9.6 8 12T1.5 12Z" }];
/** Three staggered bars. */
const PLATEAU: Icon = [{ d: "M5 2.5H15V4.3H5ZM3 7.1H13V8.9H3ZM1 11.7H11V13.5H1Z", paint: "ink" }];
const GAP: Icon = [{ d: "M14 8A6 4.6 0 1 1 2 8A6 4.6 0 1 1 14 8ZM0.5 6.4H15.5M0.5 9.6H15.5" }];
const GROUPING: Icon = [{ d: "M1 5.5H15V14H1ZM1 5.5V2.5H8V5.5" }];
/** A map pin. */
const LOCATION: Icon = [{ d: "M8 15C8 15 3 9.6 3 6.5A5 5 0 0 1 13 6.5C13 9.6 8 15 8 15Z" + circle(8, 6.5, 1.8) }];
const JUNCTION: Icon = [{ d: circle(8, 8, 4), paint: "ink" }];
const OR_JUNCTION: Icon = [{ d: circle(8, 8, 4) }];

/** Motifs by name, for tools that want to show a legend. */
export const ICONS = {
  ACTOR,
  ROLE,
  COLLABORATION,
  INTERFACE,
  PROCESS,
  FUNCTION,
  INTERACTION,
  EVENT,
  SERVICE,
  OBJECT,
  CONTRACT,
  REPRESENTATION,
  PRODUCT,
  COMPONENT,
  NODE,
  DEVICE,
  SYSTEM_SOFTWARE,
  ARTIFACT,
  COMMUNICATION_NETWORK,
  PATH,
  EQUIPMENT,
  FACILITY,
  DISTRIBUTION_NETWORK,
  MATERIAL,
  STAKEHOLDER,
  DRIVER,
  ASSESSMENT,
  GOAL,
  OUTCOME,
  PRINCIPLE,
  REQUIREMENT,
  CONSTRAINT,
  MEANING,
  VALUE,
  RESOURCE,
  CAPABILITY,
  VALUE_STREAM,
  COURSE_OF_ACTION,
  WORK_PACKAGE,
  DELIVERABLE,
  PLATEAU,
  GAP,
  GROUPING,
  LOCATION,
  JUNCTION,
  OR_JUNCTION,
} as const satisfies Record<string, Icon>;
