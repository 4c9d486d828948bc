import { expect, test } from "vitest";
import { type ChainStep, deriveChain } from "../../src/analysis/derivation-rules.ts";

/**
 * Chains worked out by hand from ArchiMate 3.1 §5.7 and Appendix B (rule names as in derivation-rules.ts). A chain
 * is written as walked from its first element: "A -T-> B" follows a T relationship from A to B, "A <-T- B" walks
 * against one (B is its source). The expected answer is the derived relationship between the first and the last
 * element: "-T->" from the first to the last, "<-T-" from the last to the first, then certain or potential; null
 * when nothing is derivable. Structural strength: composition > aggregation > assignment > realization.
 * Every derived relationship is also checked against the relationship table (Appendix B's tables, as Archi's
 * relationships.xml encodes them): a rule whose result the table does not allow derives nothing.
 */
type Row = [chain: string, expected: string | null];

const rows: Row[] = [
  // --- certain (B.2) ---
  // DR3: realization (structural) then serving (dependency): the node serves the component through the service it
  // realizes.
  ["Node -Realization-> TechnologyService -Serving-> ApplicationComponent", "-Serving-> certain"],
  // DR3: composition then serving: the component serves the role through its interface.
  ["ApplicationComponent -Composition-> ApplicationInterface -Serving-> BusinessRole", "-Serving-> certain"],
  // DR2: two assignments: the weaker of two equal structural relationships is assignment.
  ["BusinessActor -Assignment-> BusinessRole -Assignment-> BusinessProcess", "-Assignment-> certain"],
  // DR2: composition then realization: realization is the weaker.
  ["Node -Composition-> SystemSoftware -Realization-> TechnologyService", "-Realization-> certain"],
  // DR2: assignment then realization: the component realizes the service its function realizes.
  [
    "ApplicationComponent -Assignment-> ApplicationFunction -Realization-> ApplicationService",
    "-Realization-> certain",
  ],
  // DR2: composition then aggregation: aggregation, the weaker.
  [
    "ApplicationComponent -Composition-> ApplicationComponent -Aggregation-> ApplicationComponent",
    "-Aggregation-> certain",
  ],
  // DR3: assignment then access: the role accesses what its process accesses.
  ["BusinessRole -Assignment-> BusinessProcess -Access-> BusinessObject", "-Access-> certain"],
  // DR5: assignment then triggering (dynamic): the role triggers what its process triggers.
  ["BusinessRole -Assignment-> BusinessProcess -Triggering-> BusinessProcess", "-Triggering-> certain"],
  // DR5: composition then flow: the whole passes on what its part passes on.
  ["ApplicationComponent -Composition-> ApplicationComponent -Flow-> ApplicationComponent", "-Flow-> certain"],
  // DR1: specialization after specialization is a specialization.
  ["BusinessActor -Specialization-> BusinessActor -Specialization-> BusinessActor", "-Specialization-> certain"],
  // DR4: a structural relationship and a dependency into the same element: the technology service that serves the
  // function serves the component assigned to it (the derived relationship runs from the last element to the first).
  ["ApplicationComponent -Assignment-> ApplicationFunction <-Serving- TechnologyService", "<-Serving- certain"],
  // DR4, the other way round: the process accesses a part of the object, so it accesses the whole.
  ["BusinessProcess -Access-> BusinessObject <-Composition- BusinessObject", "-Access-> certain"],
  // DR4: the process accesses the data object the artifact realizes, so it accesses the artifact.
  ["ApplicationProcess -Access-> DataObject <-Realization- Artifact", "-Access-> certain"],
  // DR6: a structural relationship and a dynamic one into the same element: the process flows to the role assigned
  // to the process it flows to.
  ["BusinessProcess -Flow-> BusinessProcess <-Assignment- BusinessRole", "-Flow-> certain"],
  // DR6, walked from the role: the event that triggers the role's process triggers the role.
  ["BusinessRole -Assignment-> BusinessProcess <-Triggering- BusinessEvent", "<-Triggering- certain"],
  // DR7: triggering then realization: the event triggers the service its process realizes.
  ["BusinessEvent -Triggering-> BusinessProcess -Realization-> BusinessService", "-Triggering-> certain"],
  // DR8: triggering is transitive.
  ["BusinessProcess -Triggering-> BusinessProcess -Triggering-> BusinessProcess", "-Triggering-> certain"],
  // DR2 walked against the direction: the component is assigned to the function that realizes the service, so it
  // realizes the service.
  [
    "ApplicationService <-Realization- ApplicationFunction <-Assignment- ApplicationComponent",
    "<-Realization- certain",
  ],
  // DR3 walked against the direction: the component realizes the service that serves the process: it serves it.
  ["BusinessProcess <-Serving- ApplicationService <-Realization- ApplicationComponent", "<-Serving- certain"],
  // DR2 across core and motivation by realization only (B.1 allows realization): the component realizes the goal
  // through the requirement it realizes.
  ["ApplicationComponent -Realization-> Requirement -Realization-> Goal", "-Realization-> certain"],
  // Length 3: composition, assignment, realization: all structural, the weakest is realization.
  [
    "Device -Composition-> SystemSoftware -Assignment-> TechnologyFunction -Realization-> TechnologyService",
    "-Realization-> certain",
  ],
  // A junction joins two serving relationships into one: it is that serving relationship.
  ["ApplicationService -Serving-> AndJunction -Serving-> BusinessProcess", "-Serving-> certain"],
  // --- potential (B.3) ---
  // PDR1: the general component's serving may hold for the specialized one.
  ["ApplicationComponent -Specialization-> ApplicationComponent -Serving-> BusinessProcess", "-Serving-> potential"],
  // PDR2: what serves the general actor may serve the specialized one.
  ["BusinessActor -Specialization-> BusinessActor <-Serving- BusinessService", "<-Serving- potential"],
  // PDR3: the specialized actor's role may also be the general actor's.
  ["BusinessActor <-Specialization- BusinessActor -Assignment-> BusinessRole", "-Assignment-> potential"],
  // PDR4: what serves the specialized actor may serve the general one.
  ["ApplicationService -Serving-> BusinessActor -Specialization-> BusinessActor", "-Serving-> potential"],
  // PDR5: what serves a whole may serve a given part of it.
  ["ApplicationService -Serving-> BusinessProcess -Composition-> BusinessProcess", "-Serving-> potential"],
  // PDR5: the process may access the part of the object it accesses.
  ["BusinessProcess -Access-> BusinessObject -Composition-> BusinessObject", "-Access-> potential"],
  // PDR6: against the assignment: the component serves the process, so the function assigned to it may.
  ["ApplicationFunction <-Assignment- ApplicationComponent -Serving-> BusinessProcess", "-Serving-> potential"],
  // PDR7: what flows to a whole may flow to a given part.
  ["ApplicationComponent -Flow-> ApplicationComponent -Composition-> ApplicationComponent", "-Flow-> potential"],
  // PDR8: against the composition: the whole process triggers another, a sub-process may be the one that does.
  ["BusinessProcess <-Composition- BusinessProcess -Triggering-> BusinessProcess", "-Triggering-> potential"],
  // Length 3: (realization, serving) = serving certain (DR3); serving then realization = potential (PDR5).
  [
    "Node -Realization-> TechnologyService -Serving-> ApplicationComponent -Realization-> ApplicationService",
    "-Serving-> potential",
  ],
  // --- not derivable ---
  // Two servings: what serves an element that serves a third says nothing of the third (no rule).
  ["TechnologyService -Serving-> ApplicationComponent -Serving-> BusinessProcess", null],
  // Triggering then flow: two different dynamic relationships, no rule.
  ["BusinessProcess -Triggering-> BusinessProcess -Flow-> BusinessProcess", null],
  // Flow then flow: what b passes on need not be what it received (no rule).
  ["ApplicationFunction -Flow-> ApplicationFunction -Flow-> ApplicationFunction", null],
  // Serving then flow: a dependency followed by a dynamic relationship, no rule.
  ["ApplicationService -Serving-> ApplicationFunction -Flow-> ApplicationFunction", null],
  // Influence then influence: two dependencies, no rule.
  ["Driver -Influence-> Goal -Influence-> Goal", null],
  // Association first: associations derive nothing.
  ["BusinessActor -Association-> BusinessActor -Assignment-> BusinessRole", null],
  // Association last: nothing either.
  ["ApplicationComponent -Composition-> ApplicationComponent -Association-> DataObject", null],
  // Two wholes of one part (both into the interface): no rule relates the wholes.
  ["ApplicationComponent -Composition-> ApplicationInterface <-Composition- ApplicationComponent", null],
  // Two parts of one whole (both out of it): no rule relates the parts.
  ["ApplicationComponent <-Composition- ApplicationComponent -Composition-> ApplicationComponent", null],
  // Two services serving the same process: nothing between the services.
  ["ApplicationService -Serving-> BusinessProcess <-Serving- TechnologyService", null],
  // Grouping: derivation rules do not work on relationships with a grouping (B.1).
  ["Grouping -Aggregation-> ApplicationComponent -Serving-> BusinessProcess", null],
  // Core to implementation by assignment: B.1 allows only realization and influence between core and other elements.
  ["BusinessActor -Assignment-> WorkPackage -Realization-> Deliverable", null],
  // A junction between two relationships of different types joins nothing.
  ["ApplicationService -Serving-> OrJunction -Triggering-> BusinessProcess", null],
  // Length 3: (realization, serving) = serving; serving then flow has no rule.
  ["ApplicationComponent -Realization-> ApplicationService -Serving-> BusinessProcess -Flow-> BusinessProcess", null],
  // DR3 applies (assignment then access gives access), but the relationship table does not let equipment access
  // material (access starts at behaviour): the result must be allowed between its ends, so nothing is derived.
  ["Equipment -Assignment-> PhysicalProcess -Access-> Material", null],
  // One relationship is not a chain: nothing is derived from it.
  ["Node -Realization-> TechnologyService", null],
];

function parse(chain: string): ChainStep[] {
  const parts = chain.split(/ (-\w+->|<-\w+-) /);
  const steps: ChainStep[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const arrow = parts[i] as string;
    const reverse = arrow.startsWith("<");
    const type = arrow.replace(/[<>-]/g, "");
    steps.push({ from: parts[i - 1] as string, type, to: parts[i + 1] as string, reverse });
  }
  return steps;
}

test.each(rows)("%s => %s", (chain, expected) => {
  const derived = deriveChain(parse(chain));
  const arrow = (type: string, reverse: boolean) => (reverse ? `<-${type}-` : `-${type}->`);
  expect(derived ? `${arrow(derived.type, derived.reverse)} ${derived.certainty}` : null).toBe(expected);
});

test("the table has at least 25 chains: certain, potential and not derivable ones, some walked against the direction", () => {
  expect(rows.length).toBeGreaterThanOrEqual(25);
  expect(rows.filter(([, e]) => e === null).length).toBeGreaterThanOrEqual(10);
  expect(rows.filter(([, e]) => e?.endsWith("potential")).length).toBeGreaterThanOrEqual(8);
  expect(rows.filter(([c]) => c.includes("<-")).length).toBeGreaterThanOrEqual(10);
});

test("the rules applied are named, in order", () => {
  const derived = deriveChain(
    parse("Node -Realization-> TechnologyService -Serving-> ApplicationComponent -Realization-> ApplicationService"),
  );
  expect(derived?.rules).toEqual(["DR3", "PDR5"]);
});
