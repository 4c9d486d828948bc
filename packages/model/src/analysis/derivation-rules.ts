import { type ElementType, isRelationshipAllowed, type RelationshipType, resolveElementType } from "@ams/shared";
import { layerOfType } from "./impact.ts";

/**
 * ArchiMate 3.1's derivation of a relationship from a chain of relationships (§5.7 and Appendix B), for chains that
 * run in their relationships' direction (a -p-> b -q-> c ...). A chain is folded from its start, two relationships
 * at a time; a "potential" step makes the whole derivation potential, a step without a rule makes it not derivable.
 *
 * Valid (certain) derivations:
 * - specialization after specialization: specialization;
 * - two structural relationships (composition, aggregation, assignment, realization): the weaker of the two, in the
 *   order composition > aggregation > assignment > realization;
 * - a structural relationship followed by a dependency (serving, access, influence) or dynamic relationship
 *   (triggering, flow): that dependency or dynamic relationship (what a part, performer or realizer does, the whole,
 *   the performed or realized element does through it).
 * Potential derivations (true in some models, not in all):
 * - a specialization followed by any structural, dependency or dynamic relationship: that relationship (the general
 *   element's relationship may hold for the specialized one);
 * - a dependency or dynamic relationship followed by a structural one: the dependency or dynamic relationship (what
 *   serves or triggers a whole may serve or trigger a part of it);
 * - two serving, two influence, two triggering or two flow relationships: one of the same type (what serves an
 *   element that serves a third may serve that third one, or not).
 * Not derivable: any chain with an association; a dependency followed by another kind of dependency or by a dynamic
 * relationship, and the reverse; a relationship followed by a specialization; chains through a Grouping; a
 * relationship between a core element and a motivation, strategy or implementation element other than realization
 * and influence (Appendix B.1's restriction). The derived relationship must be one the relationship table allows
 * between the chain's two ends.
 */
export type Certainty = "certain" | "potential";
export type Derived = { type: RelationshipType; certainty: Certainty };
export type ChainStep = { type: string; sourceType: string; targetType: string };

const STRUCTURAL: readonly string[] = ["Composition", "Aggregation", "Assignment", "Realization"];
const DEPENDENCY: readonly string[] = ["Serving", "Access", "Influence"];
const DYNAMIC: readonly string[] = ["Triggering", "Flow"];
const CHAINABLE_SAME: readonly string[] = ["Serving", "Influence", "Triggering", "Flow"];
const CORE_LAYERS = new Set(["Business", "Application", "Technology", "Physical", "Composite"]);

const isStructural = (t: string) => STRUCTURAL.includes(t);
const isDependencyOrDynamic = (t: string) => DEPENDENCY.includes(t) || DYNAMIC.includes(t);

/** The derivation of p(a,b):S followed by q(b,c):T, if a rule gives one. */
export function combine(first: Derived, second: RelationshipType): Derived | null {
  const s = first.type;
  const t = second;
  const potential = (type: RelationshipType): Derived => ({ type, certainty: "potential" });
  const keep = (type: RelationshipType): Derived => ({ type, certainty: first.certainty });
  if (s === "Association" || t === "Association") return null;
  if (s === "Specialization" && t === "Specialization") return keep("Specialization");
  if (s === "Specialization") return isStructural(t) || isDependencyOrDynamic(t) ? potential(t) : null;
  if (t === "Specialization") return null;
  if (isStructural(s) && isStructural(t)) {
    return keep(STRUCTURAL.indexOf(s) > STRUCTURAL.indexOf(t) ? s : t);
  }
  if (isStructural(s) && isDependencyOrDynamic(t)) return keep(t);
  if (isDependencyOrDynamic(s) && isStructural(t)) return potential(s);
  if (s === t && CHAINABLE_SAME.includes(s)) return potential(s);
  return null;
}

/** Appendix B.1: derivation does not reach across Grouping, nor between core and other elements but by realization and influence. */
function stepAllowed(step: ChainStep): boolean {
  if (step.sourceType === "Grouping" || step.targetType === "Grouping") return false;
  const coreSource = CORE_LAYERS.has(layerOfType(step.sourceType));
  const coreTarget = CORE_LAYERS.has(layerOfType(step.targetType));
  if (coreSource === coreTarget) return true;
  return step.type === "Realization" || step.type === "Influence";
}

/** What a chain of two or more relationships derives between its first source and its last target, or null. */
export function deriveChain(steps: readonly ChainStep[]): Derived | null {
  const [head, ...rest] = steps;
  if (!head || rest.length === 0 || !steps.every(stepAllowed)) return null;
  let derived: Derived | null = { type: head.type as RelationshipType, certainty: "certain" };
  for (const step of rest) {
    derived = combine(derived, step.type as RelationshipType);
    if (!derived) return null;
  }
  const source = resolveElementType(head.sourceType) as ElementType | undefined;
  const target = resolveElementType(steps[steps.length - 1]?.targetType ?? "") as ElementType | undefined;
  if (!source || !target || !isRelationshipAllowed(derived.type, source, target)) return null;
  return derived;
}

/** Whether a chain that starts with these steps may still derive something once extended (prunes the walk). */
export function chainAlive(steps: readonly ChainStep[]): boolean {
  const [head, ...rest] = steps;
  if (!head || !steps.every(stepAllowed)) return false;
  let derived: Derived | null = { type: head.type as RelationshipType, certainty: "certain" };
  for (const step of rest) {
    derived = combine(derived, step.type as RelationshipType);
    if (!derived) return false;
  }
  return true;
}
