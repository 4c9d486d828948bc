import autocannon from "autocannon";

/** One HTTP request of the workload, as autocannon writes it on the wire. */
export type LoadRequest = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

/** What an operation sends now, and what to do with the answer (keep the ids it created, give back what it held). */
export type Planned = { request: LoadRequest; settle?: (status: number, body: string) => void };

/**
 * A kind of request of the mix. `plan()` answers undefined when the operation has nothing to work on right now
 * (no element created yet to delete, an import already running in that organization): another one is drawn.
 */
export type Operation = { name: string; weight: number; plan(): Planned | undefined };

/** The figures of one operation over one run. */
export type OperationFigures = {
  name: string;
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  /** Each distinct failure ("422 Validation failed: ...") with how often it came. */
  failures: Record<string, number>;
};

export type RunFigures = {
  seconds: number;
  connections: number;
  operations: OperationFigures[];
  /** Every answer of the run together (the mix's percentiles). */
  all: OperationFigures;
  /** Requests that got no answer (socket errors, timeouts), which autocannon cannot attribute to an operation. */
  unanswered: Record<string, number>;
};

/** Latencies of one operation, kept whole: a run has at most a few hundred thousand, and exact tails matter. */
class Recorder {
  readonly times: number[] = [];
  readonly failures = new Map<string, number>();
  fail(what: string) {
    this.failures.set(what, (this.failures.get(what) ?? 0) + 1);
  }
  figures(name: string, seconds: number): OperationFigures {
    const sorted = Float64Array.from(this.times).sort();
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
    const errors = [...this.failures.values()].reduce((a, b) => a + b, 0);
    return {
      name,
      count: sorted.length,
      perSecond: sorted.length / seconds,
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      max: sorted.length ? sorted[sorted.length - 1]! : 0,
      errors,
      failures: Object.fromEntries(this.failures),
    };
  }
}

/** A failed answer in one line: the status and the first line of what the server said (its problem detail). */
export function describeFailure(status: number, body: string): string {
  let said = body;
  try {
    const problem = JSON.parse(body) as { title?: string; detail?: string; error?: { message?: string } };
    said = [problem.title, problem.detail ?? problem.error?.message].filter(Boolean).join(": ") || body;
  } catch {}
  return `${status} ${said.split("\n")[0]!.slice(0, 160)}`;
}

/** A JSON-RPC answer can be a 200 that carries an error: that is a failure too. */
function rpcFailure(body: string): string | undefined {
  if (!body.startsWith("{") || !body.includes('"jsonrpc"')) return undefined;
  const parsed = JSON.parse(body) as { error?: { code: number; message: string }; result?: { isError?: boolean } };
  if (parsed.error) return `JSON-RPC ${parsed.error.code} ${parsed.error.message}`;
  if (parsed.result?.isError) return `tool error ${body.slice(0, 160)}`;
  return undefined;
}

/** Draws operations by weight from a seeded generator, so two runs send the same mix in the same order. */
export function weightedPicker(operations: readonly Operation[], seed: number) {
  const total = operations.reduce((sum, op) => sum + op.weight, 0);
  let state = seed >>> 0;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    let r = random() * total;
    for (const [index, op] of operations.entries()) {
      r -= op.weight;
      if (r < 0) return index;
    }
    return operations.length - 1;
  };
}

type Context = { op?: number; started?: number; settle?: Planned["settle"] };

/**
 * Loads `base` with the mix for `seconds` over `connections` keep-alive connections. autocannon keeps one request
 * in flight per connection and asks setupRequest for the next one the moment an answer is complete, so the time
 * from setupRequest to onResponse is the request's latency as a client sees it; each is booked under the operation
 * that built it (autocannon's own histogram mixes every operation).
 */
export async function runLoad(opts: {
  base: string;
  operations: readonly Operation[];
  connections: number;
  seconds: number;
  seed?: number;
}): Promise<RunFigures> {
  const { operations } = opts;
  const recorders = operations.map(() => new Recorder());
  const all = new Recorder();
  const unanswered = new Map<string, number>();
  const pick = weightedPicker(operations, opts.seed ?? 1);
  const plan = (): [number, Planned] => {
    // An operation with nothing to do gives its turn to another draw; the first operation (a read) always can.
    for (let tries = 0; tries < 20; tries++) {
      const index = pick();
      const planned = operations[index]!.plan();
      if (planned) return [index, planned];
    }
    return [0, operations[0]!.plan()!];
  };
  const started = performance.now();
  let finished!: (result: autocannon.Result) => void;
  let failed!: (err: Error) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: opts.base,
      connections: opts.connections,
      duration: opts.seconds,
      timeout: 30,
      requests: [
        {
          setupRequest(defaults, context) {
            const [index, planned] = plan();
            Object.assign(context as Context, { op: index, started: performance.now(), settle: planned.settle });
            const { request } = planned;
            return {
              ...defaults,
              method: request.method,
              path: request.path,
              headers: { ...defaults.headers, ...request.headers },
              body: request.body ?? "",
            };
          },
          onResponse(status, body, context) {
            const { op, started: at, settle } = context as Context;
            if (op === undefined || at === undefined) return;
            const ms = performance.now() - at;
            const failure = status >= 300 ? describeFailure(status, body) : rpcFailure(body);
            recorders[op]!.times.push(ms);
            all.times.push(ms);
            if (failure) {
              recorders[op]!.fail(failure);
              all.fail(`${operations[op]!.name}: ${failure}`);
            }
            settle?.(status, body);
          },
        },
      ],
    },
    (err, result) => (err ? failed(err) : finished(result)),
  );
  const miss = (what: string) => unanswered.set(what, (unanswered.get(what) ?? 0) + 1);
  instance.on("reqError", (err: Error) => miss(`no answer: ${err.message}`));
  const result = await done;
  if (result.timeouts) unanswered.set("timed out after 30 s", result.timeouts);
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    connections: opts.connections,
    operations: operations.map((op, i) => recorders[i]!.figures(op.name, seconds)),
    all: all.figures("all operations", seconds),
    unanswered: Object.fromEntries(unanswered),
  };
}
