import { parentPort, workerData } from "node:worker_threads";

/**
 * The bench's browsers, in a thread of their own (the server's heap is measured apart from theirs): opens `count`
 * event streams at `url` and notes when each `change` event (by its revision) arrived, in epoch milliseconds.
 */
type Start = { url: string; count: number; cookie: string };
const port = parentPort!;
const arrivals = new Map<number, number[]>();
const controllers: AbortController[] = [];
let ready = 0;

const now = () => performance.timeOrigin + performance.now();

async function follow(url: string, cookie: string, abort: AbortController) {
  const res = await fetch(url, { headers: { cookie, accept: "text/event-stream" }, signal: abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream: ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = "";
  let counted = false;
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    buffer += decoder.decode(r.value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.includes("event: ready") && !counted) {
        counted = true;
        if (++ready === controllers.length) port.postMessage({ type: "ready" });
      }
      const id = /^id: [^:\n]+:(\d+)$/m.exec(block);
      if (id && block.includes("event: change")) {
        const revision = Number(id[1]);
        const list = arrivals.get(revision) ?? [];
        list.push(now());
        arrivals.set(revision, list);
      }
    }
  }
}

port.on("message", (msg: ({ type: "start" } & Start) | { type: "collect" } | { type: "stop" }) => {
  if (msg.type === "start") {
    for (let i = 0; i < msg.count; i++) {
      const abort = new AbortController();
      controllers.push(abort);
      follow(msg.url, msg.cookie, abort).catch((err) => {
        if (!abort.signal.aborted) port.postMessage({ type: "error", message: String(err) });
      });
    }
  } else if (msg.type === "collect") {
    port.postMessage({ type: "arrivals", arrivals: [...arrivals] });
    arrivals.clear();
  } else {
    for (const c of controllers) c.abort();
    controllers.length = 0;
    ready = 0;
    port.postMessage({ type: "stopped" });
  }
});
void workerData;
