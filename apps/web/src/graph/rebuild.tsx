import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import type { GraphJob } from "../api/types.ts";
import { FormError } from "../ui/form.tsx";

const STATE_WORDS: Record<string, string> = {
  queued: "Waiting for the graph worker…",
  running: "Rebuilding the graph…",
  succeeded: "Done",
  failed: "Failed",
};

function countsText(counts: unknown): string {
  if (!counts || typeof counts !== "object") return "";
  return Object.entries(counts as Record<string, unknown>)
    .map(([k, v]) => `${v} ${k.replace(/_/g, " ")}`)
    .join(", ");
}

/** Rebuilds the active workspace's graph and follows the job until it is done or failed. */
export function RebuildGraph(props: { onDone?: () => void }) {
  const [job, setJob] = useState<GraphJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  const follow = async (j: GraphJob) => {
    let current = j;
    while (live.current && (current.state === "queued" || current.state === "running")) {
      await new Promise((r) => setTimeout(r, 400));
      current = await api.get<GraphJob>(current.status_url);
      if (live.current) setJob(current);
    }
    if (current.state === "succeeded") props.onDone?.();
  };
  const start = async () => {
    setError(null);
    setJob(null);
    try {
      const res = await api.raw("POST", "/api/export/neo4j");
      const j = (await res.json()) as GraphJob;
      setJob(j);
      await follow(j);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 503
          ? `The graph database is not available: ${describeError(err)}`
          : describeError(err),
      );
    }
  };
  const busy = job !== null && (job.state === "queued" || job.state === "running");
  return (
    <div class="rebuild">
      <button type="button" onClick={start} disabled={busy}>
        Rebuild graph
      </button>
      <span role="status" class={job?.state === "failed" ? "status-off" : "muted"}>
        {job
          ? `${STATE_WORDS[job.state] ?? job.state}${job.state === "succeeded" && job.counts ? `: ${countsText(job.counts)}` : ""}${
              job.state === "failed" && job.error ? `: ${job.error}` : ""
            }`
          : ""}
      </span>
      {busy ? <progress aria-label="Rebuild progress" /> : null}
      <FormError error={error} />
    </div>
  );
}
