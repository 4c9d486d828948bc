import type { Logger } from "@ams/shared";

/**
 * Work done after the answer has gone out (a password-reset e-mail: the answer must not take longer when the
 * address has an account). Tasks run one after another in this process, in the order they were queued; a failure
 * is logged, never thrown at anyone. idle() resolves once everything queued so far has finished (tests, shutdown).
 */
export type BackgroundQueue = {
  run(name: string, task: () => Promise<void>): void;
  idle(): Promise<void>;
};

export function createBackgroundQueue(log: Logger): BackgroundQueue {
  let tail: Promise<void> = Promise.resolve();
  return {
    run(name, task) {
      tail = tail.then(task).catch((err) => log.error(`background task failed: ${name}`, { err }));
    },
    idle: () => tail,
  };
}
