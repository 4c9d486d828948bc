import { benchDeploy } from "./deploy.ts";
import { benchExchange } from "./exchange.ts";
import { benchFuzz } from "./fuzz.ts";
import { benchGateway } from "./gateway.ts";
import { benchGraph } from "./graph.ts";
import { summary } from "./lib.ts";
import { benchLoad } from "./load.ts";
import { benchMcp } from "./mcp.ts";
import { benchModelApi } from "./model-api.ts";
import { benchScale } from "./scale.ts";
import { benchWeb } from "./web.ts";
import { benchWebDashboard } from "./web-dashboard.ts";

/** `pnpm bench`: every benchmark, each figure beside its floor measured in the same run. */
const only = process.argv[2];
const suites: Record<string, () => Promise<void>> = {
  "model-api": benchModelApi,
  exchange: benchExchange,
  gateway: benchGateway,
  mcp: benchMcp,
  graph: benchGraph,
  fuzz: benchFuzz,
  web: benchWeb,
  "web-dashboard": benchWebDashboard,
  deploy: benchDeploy,
  load: () => benchLoad().then(() => undefined),
  scale: benchScale,
};
for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue;
  await run();
}
summary();
process.exit(0);
