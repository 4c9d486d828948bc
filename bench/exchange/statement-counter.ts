import net, { type AddressInfo } from "node:net";

/**
 * A TCP relay in front of PostgreSQL that counts the statements its clients execute (protocol Execute and Query
 * messages): whatever the driver or the code path, a statement per row would show here.
 */
export async function statementCounter(target: URL) {
  let statements = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    let started = false;
    let skip = 0;
    let head = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      let off = 0;
      while (off < chunk.length) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - off);
          skip -= n;
          off += n;
          continue;
        }
        const want = started ? 5 : 8; // the startup message has no type byte
        const take = Math.min(want - head.length, chunk.length - off);
        head = Buffer.concat([head, chunk.subarray(off, off + take)]);
        off += take;
        if (head.length < want) break;
        if (started) {
          if (head[0] === 0x45 || head[0] === 0x51) statements++; // 'E'xecute, simple 'Q'uery
          skip = head.readInt32BE(1) - 4;
        } else {
          started = head.readInt32BE(4) !== 80877103; // an SSLRequest comes before the real startup message
          skip = head.readInt32BE(0) - 8;
        }
        head = Buffer.alloc(0);
      }
    });
    upstream.on("data", (c: Buffer) => client.write(c));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    take: () => {
      const n = statements;
      statements = 0;
      return n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
