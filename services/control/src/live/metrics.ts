import { registerGauge, type ServiceMetrics } from "@ams/shared/http";
import type { Live } from "./live.ts";

/** Open event streams and the change feed's mode, read at each scrape. */
export function registerLiveMetrics(metrics: ServiceMetrics, live: Live): void {
  registerGauge(
    metrics,
    "archimate_event_streams_open",
    "Open /api/workspaces/:id/events streams on this replica",
    () => live.events.openStreams(),
  );
  registerGauge(
    metrics,
    "archimate_change_feed_polling",
    "1 while the change feed's LISTEN subscription is lost and the change log is polled instead",
    () => (live.events.feedMode() === "polling" ? 1 : 0),
  );
}
