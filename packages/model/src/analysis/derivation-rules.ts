import { type ElementType, isRelationshipAllowed, type RelationshipType, resolveElementType } from "@ams/shared";
import { layerOfType } from "./impact.ts";

/**
 * ArchiMate 3.1's derivation of relationships (§5.7 and Appendix B), for chains walked from one element through its
 * relationships in either direction: a step follows a relationship from its source to its target ("forward") or
 * from its target to its source ("reverse"). Two relationships p and q meeting at an element b are combined by the
 * rules below (a, b, c and p(a,b):S written as in Appendix B); a chain is folded from its start, two at a time.
 *
 * Certain (B.2, valid in every model):
 * - DR1  specialization(a,b), specialization(b,c) → specialization(a,c);
 * - DR2  structural S(a,b), structural T(b,c) → the weaker of S and T (a,c), composition > aggregation > assignment
 *        > realization;
 * - DR3  structural S(a,b), dependency T(b,c) → T(a,c) (what a part, behaviour or realizer serves, accesses or
 *        influences, its whole, performer or realized element does through it);
 * - DR4  structural S(a,b), dependency T(c,b) → T(c,a) (serving or accessing a part serves or accesses the whole;
 *        serving a behaviour serves the active structure assigned to it);
 * - DR5  structural S(a,b), dynamic T(b,c) → T(a,c);
 * - DR6  structural S(a,b), dynamic T(c,b) → T(c,a);
 * - DR7  triggering(a,b), structural T(b,c) → triggering(a,c);
 * - DR8  triggering(a,b), triggering(b,c) → triggering(a,c).
 * Potential (B.3, may hold in a model, or not):
 * - PDR1 specialization(a,b), T(b,c) → T(a,c);  PDR2 specialization(a,b), T(c,b) → T(c,a);
 * - PDR3 specialization(a,b), T(a,c) → T(b,c);  PDR4 specialization(a,b), T(c,a) → T(c,b)
 *        (T structural, dependency or dynamic: what holds for the general element may hold for the specialized one
 *        and the other way round);
 * - PDR5 dependency S(a,b), structural T(b,c) → S(a,c) (what serves a whole may serve a given part of it);
 * - PDR6 structural S(a,b), dependency T(a,c) → T(b,c) (a part, behaviour or realizer of what serves c may serve c);
 * - PDR7 flow(a,b), structural T(b,c) → flow(a,c);
 * - PDR8 structural S(a,b), dynamic T(a,c) → T(b,c).
 * Not derivable: anything with an association; two dependencies (serving after serving: what serves an element that
 * serves a third says nothing of the third), a dependency with a dynamic relationship either way round, flow after
 * flow and flow with triggering; two structural relationships into the same element or out of the same element
 * (two wholes of one part, two parts of one whole); chains through a Grouping; a relationship between a core element
 * and a motivation, strategy or implementation element other than realization and influence (B.1). A chain made
 * of potential steps is potential. The derived relationship must be one the relationship table allows between its
 * two ends (B.1: "the resulting relationship will then always be allowed"), else nothing is derived.
 * A junction is not an element: two relationships of one type joined by a junction are that one relationship.
 */
export type Certainty = "certain" | "potential";
/** A relationship derived between a chain's start and its current end; reverse: it runs from the end to the start. */
export type Derived = { type: RelationshipType; certainty: Certainty; reverse: boolean; rules: string[] };
/** One step of a walk: the relationship's type, the element types walked from and to, and whether it was walked against its direction. */
export type ChainStep = { type: string; from: string; to: string; reverse: boolean };

const STRUCTURAL: readonly string[] = ["Composition", "Aggregation", "Assignment", "Realization"];
const DEPENDENCY: readonly string[] = ["Serving", "Access", "Influence"];
const DYNAMIC: readonly string[] = ["Triggering", "Flow"];
const CORE_LAYERS = new Set(["Business", "Application", "Technology", "Physical", "Composite"]);
const JUNCTIONS = new Set(["AndJunction", "OrJunction"]);

const isStructural = (t: string) => STRUCTURAL.includes(t);
const isDependency = (t: string) => DEPENDENCY.includes(t);
const isDynamic = (t: string) => DYNAMIC.includes(t);
const isSpec = (t: string) => t === "Specialization";
/** Relationships the specialization rules (PDR1 to PDR4) carry over. */
const isCarried = (t: string) => isStructural(t) || isDependency(t) || isDynamic(t);

/** A derivation between a and c from a rule: first (a to c) or not (c to a). */
type Rule = { type: string; aToC: boolean; certain: boolean; rule: string };
const rule = (type: string, aToC: boolean, certain: boolean, name: string): Rule => ({
  type,
  aToC,
  certain,
  rule: name,
});

/** p(a,b):S, q(b,c):T, one after the other. */
function inLine(s: string, t: string): Rule | null {
  if (isSpec(s) && isSpec(t)) return rule(s, true, true, "DR1");
  if (isStructural(s) && isStructural(t)) {
    return rule(STRUCTURAL.indexOf(s) > STRUCTURAL.indexOf(t) ? s : t, true, true, "DR2");
  }
  if (isStructural(s) && isDependency(t)) return rule(t, true, true, "DR3");
  if (isStructural(s) && isDynamic(t)) return rule(t, true, true, "DR5");
  if (s === "Triggering" && isStructural(t)) return rule(s, true, true, "DR7");
  if (s === "Triggering" && t === "Triggering") return rule(s, true, true, "DR8");
  if (isSpec(s) && isCarried(t)) return rule(t, true, false, "PDR1");
  if (isCarried(s) && isSpec(t)) return rule(s, true, false, "PDR4");
  if (isDependency(s) && isStructural(t)) return rule(s, true, false, "PDR5");
  if (s === "Flow" && isStructural(t)) return rule(s, true, false, "PDR7");
  return null;
}

/** p(a,b):S, q(c,b):T, both into b. */
function intoShared(s: string, t: string): Rule | null {
  if (isStructural(s) && isDependency(t)) return rule(t, false, true, "DR4");
  if (isDependency(s) && isStructural(t)) return rule(s, true, true, "DR4");
  if (isStructural(s) && isDynamic(t)) return rule(t, false, true, "DR6");
  if (isDynamic(s) && isStructural(t)) return rule(s, true, true, "DR6");
  if (isSpec(s) && isCarried(t)) return rule(t, false, false, "PDR2");
  if (isCarried(s) && isSpec(t)) return rule(s, true, false, "PDR2");
  return null;
}

/** p(b,a):S, q(b,c):T, both out of b. */
function outOfShared(s: string, t: string): Rule | null {
  if (isSpec(s) && isCarried(t)) return rule(t, true, false, "PDR3");
  if (isCarried(s) && isSpec(t)) return rule(s, false, false, "PDR3");
  if (isStructural(s) && isDependency(t)) return rule(t, true, false, "PDR6");
  if (isDependency(s) && isStructural(t)) return rule(s, false, false, "PDR6");
  if (isStructural(s) && isDynamic(t)) return rule(t, true, false, "PDR8");
  if (isDynamic(s) && isStructural(t)) return rule(s, false, false, "PDR8");
  return null;
}

/**
 * The derivation of `first` (between the start and b) followed by a step from b: the four ways two relationships
 * can meet at b, each read as the Appendix B shape it is.
 */
export function combine(first: Derived, step: { type: string; reverse: boolean }): Derived | null {
  const s = first.type;
  const t = step.type;
  if (s === "Association" || t === "Association") return null;
  let found: Rule | null;
  let reverse: boolean;
  if (!first.reverse && !step.reverse) {
    // start -S-> b -T-> end
    found = inLine(s, t);
    reverse = found ? !found.aToC : false;
  } else if (first.reverse && step.reverse) {
    // end -T-> b -S-> start: in line from the end
    found = inLine(t, s);
    reverse = found ? found.aToC : false;
  } else if (!first.reverse) {
    // start -S-> b <-T- end
    found = intoShared(s, t);
    reverse = found ? !found.aToC : false;
  } else {
    // start <-S- b -T-> end
    found = outOfShared(s, t);
    reverse = found ? !found.aToC : false;
  }
  if (!found) return null;
  return {
    type: found.type as RelationshipType,
    certainty: first.certainty === "certain" && found.certain ? "certain" : "potential",
    reverse,
    rules: [...first.rules, found.rule],
  };
}

/** Appendix B.1: derivation does not reach across Grouping, nor between core and other elements but by realization and influence. */
function stepAllowed(step: ChainStep): boolean {
  if (step.from === "Grouping" || step.to === "Grouping") return false;
  const coreFrom = CORE_LAYERS.has(layerOfType(step.from));
  const coreTo = CORE_LAYERS.has(layerOfType(step.to));
  if (coreFrom === coreTo) return true;
  return step.type === "Realization" || step.type === "Influence";
}

type Folded = { derived: Derived | null; length: number; junction: boolean; open: boolean };

/**
 * Folds a chain: the derivation so far (null when nothing derives), how many relationships it spans once
 * junctions are joined, whether a junction was crossed, and whether the chain ends at a junction (still open).
 */
function fold(steps: readonly ChainStep[]): Folded | null {
  if (steps.length === 0 || !steps.every(stepAllowed)) return null;
  if (JUNCTIONS.has(steps[0]?.from ?? "")) return null;
  let derived: Derived | null = null;
  let pending: ChainStep | null = null;
  let length = 0;
  let junction = false;
  for (const step of steps) {
    let current = step;
    if (pending) {
      // A junction joins relationships of one type, in one direction.
      if (pending.type !== step.type || pending.reverse !== step.reverse) return null;
      current = { ...step, from: pending.from };
      pending = null;
      junction = true;
    }
    if (JUNCTIONS.has(current.to)) {
      pending = current;
      continue;
    }
    length++;
    if (!derived) {
      derived = { type: current.type as RelationshipType, certainty: "certain", reverse: current.reverse, rules: [] };
    } else {
      derived = combine(derived, current);
      if (!derived) return null;
    }
  }
  return { derived, length, junction, open: pending !== null };
}

/** What a chain derives between its first and its last element, or null; reverse when it runs from the last to the first. */
export function deriveChain(steps: readonly ChainStep[]): Derived | null {
  const folded = fold(steps);
  if (!folded?.derived || folded.open) return null;
  if (folded.length < 2 && !folded.junction) return null;
  const derived = folded.length < 2 ? { ...folded.derived, rules: ["junction"] } : folded.derived;
  const first = resolveElementType(steps[0]?.from ?? "") as ElementType | undefined;
  const last = resolveElementType(steps[steps.length - 1]?.to ?? "") as ElementType | undefined;
  if (!first || !last) return null;
  const [source, target] = derived.reverse ? [last, first] : [first, last];
  if (!isRelationshipAllowed(derived.type, source, target)) return null;
  return derived;
}

/** Whether a chain that starts with these steps may still derive something once extended (prunes the walk). */
export function chainAlive(steps: readonly ChainStep[]): boolean {
  return fold(steps) !== null;
}
