import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "../src/index.ts";
import { PgliteThread } from "../src/pglite-thread.ts";

/**
 * The embedded database on its own thread (pglite-thread.ts) answers as PGlite on the calling thread did, and no
 * longer holds the thread that serves requests while a statement runs.
 */
let thread: PgliteThread;
let local: PGlite;
beforeAll(async () => {
  thread = new PgliteThread("memory://");
  local = new PGlite("memory://");
  await Promise.all([thread.waitReady, local.waitReady]);
  for (const db of [thread, local]) {
    await db.query("create table t (id int primary key, name text not null, at timestamptz default now())");
  }
});
afterAll(async () => {
  await Promise.all([thread?.close(), local?.close()]);
});

describe("PGlite on its own thread", () => {
  test("a long statement leaves the serving thread free: timers keep firing while it runs", async () => {
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    const started = performance.now();
    await thread.query("select count(*) from generate_series(1, 4000000)");
    const took = performance.now() - started;
    running = false;
    // On the calling thread the statement would have held it the whole time: no tick at all until it ended.
    expect(took).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(took / 20);
  });

  test("rows come back as drizzle reads them on the calling thread: timestamps as text, json, bigints, bytes, arrays", async () => {
    const statement = sql`select ${"x"}::text as s, now()::timestamptz as at, '2026-01-02'::date as d,
      '{"a":[1,2]}'::jsonb as j, 9007199254740993::int8 as big, '\\x0102'::bytea as b, array[1,2]::int[] as a,
      interval '1 day' as i, array[now()]::timestamptz[] as ats, null::text as n`;
    const [threaded] = (await drizzle({ client: thread as unknown as PGlite }).execute(statement)).rows;
    const [here] = (await drizzle({ client: local }).execute(statement)).rows;
    // now() differs between the two databases: its shape (text) is what must match.
    expect(typeof threaded?.at).toBe("string");
    expect({ ...threaded, at: 0, ats: 0 }).toEqual({ ...here, at: 0, ats: 0 });
    expect(threaded?.j).toEqual({ a: [1, 2] });
  });

  test("each statement's answer has the shape PGlite's query() gives: rows, fields, command and counts", async () => {
    const statements: [string, unknown[]][] = [
      ["create table shapes (id int primary key, name text)", []],
      ["insert into shapes values ($1, $2), ($3, $4)", [1, "a", 2, "b"]],
      ["update shapes set name = name || $1 where id > $2 returning id, name", ["!", 0]],
      ["select id, name, id as id from shapes where id = $1", [1]],
      ["select count(*)::int as n, null::text as nothing from shapes where name like $1", ["%!"]],
      ["delete from shapes where id = $1", [2]],
      ["select * from shapes where false", []],
    ];
    for (const [text, params] of statements) {
      for (const rowMode of ["object", "array"] as const) {
        if (text.startsWith("create") && rowMode === "array") continue;
        const threaded = await thread.query(text, params, { rowMode });
        const here = await local.query(text, params, { rowMode });
        expect(threaded, text).toEqual(here);
        if (text.startsWith("insert") || text.startsWith("delete")) break;
      }
    }
  });

  test("text is read as it was written: accents, other scripts, emoji, long values and nulls side by side", async () => {
    const values = [
      "plain",
      "Société générale",
      "Ωμέγα",
      "数据中心",
      "🚀 launch",
      "x".repeat(300),
      "é".repeat(200),
      "",
    ];
    for (const db of [thread, local]) {
      await db.query("create table texts (id int primary key, a text, b text, n int)");
      for (const [i, value] of values.entries()) {
        await db.query("insert into texts values ($1, $2, $3, $4)", [i, value, i % 2 ? null : `${value}|${i}`, i]);
      }
    }
    const text = "select a, b, n, a || b as ab from texts order by id";
    for (const rowMode of ["object", "array"] as const) {
      const threaded = await thread.query(text, [], { rowMode });
      expect(threaded).toEqual(await local.query(text, [], { rowMode }));
    }
    const { rows } = await thread.query<{ a: string }>("select a from texts order by id");
    expect(rows.map((r) => r.a)).toEqual(values);
  });

  test("a transaction's first statement runs right behind its opening, and transactions queue in order", async () => {
    await thread.query("create table queue (n int)");
    // Three transactions asked for at once: each opens when the one before has ended, its statements in between.
    await Promise.all(
      [1, 2, 3].map((n) =>
        thread.transaction(async (tx) => {
          await tx.query("insert into queue values ($1)", [n]);
          await tx.query("insert into queue values ($1)", [n * 10]);
        }),
      ),
    );
    const { rows } = await thread.query<{ n: number }>("select n from queue");
    expect(rows.map((r) => r.n)).toEqual([1, 10, 2, 20, 3, 30]);
    // A callback that fails before its first statement leaves no transaction open behind it.
    await expect(
      thread.transaction(async () => {
        throw new Error("nothing to do");
      }),
    ).rejects.toThrow("nothing to do");
    expect((await thread.query<{ n: number }>("select count(*)::int as n from queue")).rows).toEqual([{ n: 6 }]);
  });

  test("a refused statement rejects with PostgreSQL's fields, and the database goes on", async () => {
    await thread.query("insert into t (id, name) values (1, 'one')");
    const refused = await thread.query("insert into t (id, name) values (1, 'again')").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({ code: "23505", constraint: "t_pkey", table: "t" });
    expect((refused as Error).message).toMatch(/duplicate key/);
    expect((await thread.query<{ n: number }>("select count(*)::int as n from t")).rows).toEqual([{ n: 1 }]);
  });

  test("a transaction commits when its callback resolves and rolls back when it throws", async () => {
    await thread.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values (2, 'two')");
    });
    const failure = await thread
      .transaction(async (tx) => {
        await tx.query("insert into t (id, name) values (3, 'three')");
        throw new Error("changed my mind");
      })
      .catch((e: unknown) => e);
    expect((failure as Error).message).toBe("changed my mind");
    const names = await thread.query<{ name: string }>("select name from t order by id");
    expect(names.rows.map((r) => r.name)).toEqual(["one", "two"]);
  });

  test("a statement outside a transaction waits for the open one to end, as PGlite's own lock makes it", async () => {
    const order: string[] = [];
    let outside: Promise<void> | undefined;
    await thread.transaction(async (tx) => {
      await tx.query("update t set name = 'uno' where id = 1");
      // Sent while the transaction is open: answered only after it committed, so it sees the update.
      outside = thread.query<{ name: string }>("select name from t where id = 1").then((r) => {
        order.push(`outside read ${r.rows[0]?.name}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push("transaction ends");
    });
    await outside;
    expect(order).toEqual(["transaction ends", "outside read uno"]);
  });

  test("a NOTIFY reaches the listener before the committing statement's reply", async () => {
    const heard: string[] = [];
    const stop = await thread.listen("changes", (payload) => heard.push(payload));
    await thread.query("select pg_notify('changes', 'first')");
    // Heard by the time the statement that notified has answered.
    expect(heard).toEqual(["first"]);
    await thread.transaction(async (tx) => {
      await tx.query("select pg_notify('changes', 'in a transaction')");
      expect(heard).toEqual(["first"]);
    });
    expect(heard).toEqual(["first", "in a transaction"]);
    await stop();
    await thread.query("select pg_notify('changes', 'after')");
    expect(heard).toEqual(["first", "in a transaction"]);
  });

  test("once closed, every call is refused with a clear error", async () => {
    const other = new PgliteThread("memory://");
    await other.waitReady;
    await other.close();
    await expect(other.query("select 1")).rejects.toThrow(/embedded database is closed/);
  });
});
