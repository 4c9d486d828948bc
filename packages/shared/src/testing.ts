/**
 * For tests and benches: the value, or a failure naming what was missing. Used where an indexed lookup
 * (`rows[0]`, `map.get(id)`) must have found something, instead of a `!` that would fail later and obscurely.
 */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}
