import { expect, test } from "vitest";
import { type ChainStep, deriveChain } from "../../src/analysis/derivation-rules.ts";

/**
 * Chains worked out by hand from ArchiMate 3.1 §5.7 and Appendix B. Each row: the chain as
 * "SourceType -Relationship-> TargetType -Relationship-> ...", then the derivation expected, then (in the comment
 * above it) the reasoning. Structural strength: composition > aggregation > assignment > realization.
 */
type Row = [chain: string, expected: string | null];

const rows: Row[] = [
  // Realization (structural) then serving (dependency): a structural relationship followed by a dependency derives
  // that dependency, validly: the node serves the application through the service it realizes.
  ["Node -Realization-> TechnologyService -Serving-> ApplicationComponent", "Serving certain"],
  // Composition then serving: the component serves the role through its interface.
  ["ApplicationComponent -Composition-> ApplicationInterface -Serving-> BusinessRole", "Serving certain"],
  // Two assignments: structural chain, the weaker of two equal ones is assignment.
  ["BusinessActor -Assignment-> BusinessRole -Assignment-> BusinessProcess", "Assignment certain"],
  // Composition then realization: the weaker is realization.
  ["Node -Composition-> SystemSoftware -Realization-> TechnologyService", "Realization certain"],
  // Assignment then realization: realization, the weaker (the component realizes the service its function realizes).
  ["ApplicationComponent -Assignment-> ApplicationFunction -Realization-> ApplicationService", "Realization certain"],
  // Realization then realization: realization.
  ["Artifact -Realization-> ApplicationComponent -Realization-> ApplicationService", "Realization certain"],
  // Composition then aggregation: aggregation, the weaker.
  [
    "ApplicationComponent -Composition-> ApplicationComponent -Aggregation-> ApplicationComponent",
    "Aggregation certain",
  ],
  // Assignment then access (a dependency): the role accesses what its process accesses.
  ["BusinessRole -Assignment-> BusinessProcess -Access-> BusinessObject", "Access certain"],
  // Assignment then triggering (dynamic): a structural relationship followed by a dynamic one derives it.
  ["BusinessRole -Assignment-> BusinessProcess -Triggering-> BusinessProcess", "Triggering certain"],
  // Composition then flow: the whole passes on what its part passes on.
  ["ApplicationComponent -Composition-> ApplicationComponent -Flow-> ApplicationComponent", "Flow certain"],
  // Specialization after specialization: specialization, valid.
  ["BusinessActor -Specialization-> BusinessActor -Specialization-> BusinessActor", "Specialization certain"],
  // Serving then serving: only potential (what serves an element that serves a third may or may not serve the third).
  ["TechnologyService -Serving-> ApplicationComponent -Serving-> BusinessProcess", "Serving potential"],
  // Triggering then triggering: potential.
  ["BusinessProcess -Triggering-> BusinessProcess -Triggering-> BusinessProcess", "Triggering potential"],
  // Flow then flow: potential.
  ["ApplicationFunction -Flow-> ApplicationFunction -Flow-> ApplicationFunction", "Flow potential"],
  // Influence then influence: potential.
  ["Driver -Influence-> Goal -Influence-> Goal", "Influence potential"],
  // Serving then composition: what serves the whole may serve a given part: potential serving.
  ["ApplicationService -Serving-> BusinessProcess -Composition-> BusinessProcess", "Serving potential"],
  // Triggering then composition: potential triggering of the part.
  ["BusinessEvent -Triggering-> BusinessProcess -Composition-> BusinessProcess", "Triggering potential"],
  // Access then composition: the process may access the part of the object: potential access.
  ["BusinessProcess -Access-> BusinessObject -Composition-> BusinessObject", "Access potential"],
  // Specialization then realization: the general element's realization may hold for the special one: potential.
  [
    "ApplicationComponent -Specialization-> ApplicationComponent -Realization-> ApplicationService",
    "Realization potential",
  ],
  // Triggering then flow: two different dynamic relationships: no rule, not derivable.
  ["BusinessProcess -Triggering-> BusinessProcess -Flow-> BusinessProcess", null],
  // Serving then flow: a dependency followed by a dynamic relationship: not derivable.
  ["ApplicationService -Serving-> ApplicationFunction -Flow-> ApplicationFunction", null],
  // Association first: associations derive nothing.
  ["BusinessActor -Association-> BusinessActor -Assignment-> BusinessRole", null],
  // Association last: nothing either.
  ["ApplicationComponent -Composition-> ApplicationComponent -Association-> DataObject", null],
  // A relationship followed by a specialization: no rule (serving a specialized actor says nothing of the general).
  ["ApplicationService -Serving-> BusinessActor -Specialization-> BusinessActor", null],
  // Grouping: derivation rules do not work on relationships with a grouping (B.1).
  ["Grouping -Aggregation-> ApplicationComponent -Serving-> BusinessProcess", null],
  // Core to implementation by assignment: B.1 allows only realization and influence between core and other elements.
  ["BusinessActor -Assignment-> WorkPackage -Realization-> Deliverable", null],
  // Length 3: (realization o serving) = serving certain; serving o realization = potential serving.
  [
    "Node -Realization-> TechnologyService -Serving-> ApplicationComponent -Realization-> ApplicationService",
    "Serving potential",
  ],
  // Length 3: composition, assignment, realization: all structural, the weakest is realization, certain.
  [
    "Device -Composition-> SystemSoftware -Assignment-> TechnologyFunction -Realization-> TechnologyService",
    "Realization certain",
  ],
  // Length 3: (realization o serving) = serving; serving o flow has no rule: not derivable.
  ["ApplicationComponent -Realization-> ApplicationService -Serving-> BusinessProcess -Flow-> BusinessProcess", null],
  // One relationship is not a chain: nothing is derived from it.
  ["Node -Realization-> TechnologyService", null],
];

function parse(chain: string): ChainStep[] {
  const parts = chain.split(/ -(\w+)-> /);
  const steps: ChainStep[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    steps.push({ sourceType: parts[i - 1] as string, type: parts[i] as string, targetType: parts[i + 1] as string });
  }
  return steps;
}

test.each(rows)("%s => %s", (chain, expected) => {
  const derived = deriveChain(parse(chain));
  expect(derived ? `${derived.type} ${derived.certainty}` : null).toBe(expected);
});

test("the table has at least 25 chains, non-derivable ones among them", () => {
  expect(rows.length).toBeGreaterThanOrEqual(25);
  expect(rows.filter(([, e]) => e === null).length).toBeGreaterThanOrEqual(8);
});
