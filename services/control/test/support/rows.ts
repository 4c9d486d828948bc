import { must } from "@ams/shared/testing";

/** The first row a query returns, or a failure naming what the test expected to find. */
export async function firstRow<T>(query: PromiseLike<T[]>, what: string): Promise<T> {
  return must((await query)[0], what);
}
