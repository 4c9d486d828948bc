import { summary } from "./lib.ts";

/**
 * `pnpm bench`: every benchmark, each figure beside its floor measured in the same run. Each suite's module is
 * loaded only when it runs, so `pnpm bench:compare` can run one suite against an older tree that lacks what another
 * suite imports.
 */
const only = process.argv[2];
const suites: Record<string, () => Promise<unknown>> = {
  "model-api": async () => (await import("./model-api.ts")).benchModelApi(),
  exchange: async () => (await import("./exchange.ts")).benchExchange(),
  report: async () => (await import("./report.ts")).benchReport(),
  csv: async () => (await import("./csv.ts")).benchCsv(),
  gateway: async () => (await import("./gateway.ts")).benchGateway(),
  "body-limit": async () => (await import("./body-limit.ts")).benchBodyLimit(),
  resolve: async () => (await import("./resolve.ts")).benchResolve(),
  "valid-after": async () => (await import("./valid-after.ts")).benchValidAfter(),
  "two-factor": async () => (await import("./two-factor.ts")).benchTwoFactor(),
  "live-events": async () => (await import("./live-events.ts")).benchLiveEvents(),
  "live-browser": async () => (await import("./live-browser.ts")).benchLiveBrowser(),
  history: async () => (await import("./history.ts")).benchHistory(),
  drafts: async () => (await import("./drafts.ts")).benchDrafts(),
  mcp: async () => (await import("./mcp.ts")).benchMcp(),
  graph: async () => (await import("./graph.ts")).benchGraph(),
  "graph-sync": async () => (await import("./graph-sync.ts")).benchGraphSync(),
  analysis: async () => (await import("./analysis.ts")).benchAnalysis(),
  table: async () => (await import("./table.ts")).benchTable(),
  validation: async () => (await import("./validation.ts")).benchValidation(),
  fuzz: async () => (await import("./fuzz.ts")).benchFuzz(),
  web: async () => (await import("./web.ts")).benchWeb(),
  "web-dashboard": async () => (await import("./web-dashboard.ts")).benchWebDashboard(),
  deploy: async () => (await import("./deploy.ts")).benchDeploy(),
  load: async () => (await import("./load.ts")).benchLoad(),
  scale: async () => (await import("./scale.ts")).benchScale(),
};
if (only && !suites[only]) throw new Error(`no suite '${only}': choose from ${Object.keys(suites).join(", ")}`);
for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue;
  await run();
}
summary();
process.exit(0);
