/** A clock tests can move: the app reads time only through it. */
export type TestClock = { now: () => Date; advance(ms: number): void; set(date: Date): void };

export function createTestClock(start = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(date) {
      current = date.getTime();
    },
  };
}
