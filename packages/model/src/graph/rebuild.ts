import { AppError, notFound } from "@ams/shared";
import type { z } from "zod";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { GraphDeps } from "./deps.ts";
import { forgetSlot } from "./explore.ts";
import { finishJob, getJob, insertJob, toJobView } from "./jobs.ts";
import type { GraphJobSchema, RebuildAnswer } from "./schemas.ts";

/**
 * POST /api/export/neo4j: queues a rebuild of the active workspace's graph and waits for it up to
 * graph.rebuildWaitMs. Succeeded in time: 200 with the counts; still going: 202 with the job and its status route.
 */
export async function requestRebuild({ ctx, graph }: Verb & { graph: GraphDeps }): Promise<RebuildAnswer> {
  requireCapability(ctx, "graph:rebuild");
  const ws = requireWorkspace(ctx);
  const job = await insertJob(ctx.database, ws, ctx.userId);
  try {
    await graph.queue.enqueue({ jobId: job.id, workspaceId: ws, requestId: ctx.requestId });
  } catch (err) {
    const message = `the job queue is unavailable: ${(err as Error).message}`;
    await finishJob(ctx.database, job.id, { state: "failed", error: message });
    throw new AppError("UNAVAILABLE", `Graph rebuild could not be queued (${message})`);
  }
  return waitForJob(ctx, ws, job.id, graph);
}

/**
 * A rebuild already requested, waited for again up to graph.rebuildWaitMs (MCP's rebuild_graph {job_id}: an
 * assistant follows a long rebuild without starting another). Not this workspace's job: 404.
 */
export async function awaitRebuild({
  ctx,
  input,
  graph,
}: Verb<{ jobId: string }> & { graph: GraphDeps }): Promise<RebuildAnswer> {
  requireCapability(ctx, "graph:rebuild");
  const ws = requireWorkspace(ctx);
  if (!JOB_ID.test(input.jobId)) throw notFound("Graph job", input.jobId);
  return waitForJob(ctx, ws, input.jobId, graph);
}

const JOB_ID = /^[0-9a-f-]{36}$/i;

/** Polls the job until it finished or the wait is over: succeeded 200, still going 202, failed 503 saying why. */
async function waitForJob(ctx: Verb["ctx"], ws: string, jobId: string, graph: GraphDeps): Promise<RebuildAnswer> {
  const deadline = Date.now() + (graph.rebuildWaitMs ?? 10_000);
  let pause = 25;
  for (;;) {
    const current = await getJob(ctx.database, ws, jobId);
    if (!current) throw notFound("Graph job", jobId);
    if (current.state === "succeeded") {
      forgetSlot(ws);
      return { status: 200, job: toJobView(current) };
    }
    if (current.state === "failed") {
      throw new AppError(
        "UNAVAILABLE",
        `Graph rebuild failed (job ${current.id}): ${current.error ?? "unknown error"}`,
      );
    }
    const left = deadline - Date.now();
    if (left <= 0) return { status: 202, job: toJobView(current) };
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
    pause = Math.min(pause * 2, 250);
  }
}

/** GET /api/export/neo4j/jobs/:jobId: a rebuild job of the active workspace. */
export async function getRebuildJob({ ctx, input }: Verb<{ jobId: string }>): Promise<z.infer<typeof GraphJobSchema>> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  if (!JOB_ID.test(input.jobId)) throw notFound("Graph job", input.jobId);
  const job = await getJob(ctx.database, ws, input.jobId);
  if (!job) throw notFound("Graph job", input.jobId);
  if (job.state === "succeeded") forgetSlot(ws);
  return toJobView(job);
}
