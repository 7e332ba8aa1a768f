// A latch: promises that wait for something to happen. wait() is a promise that release(value)
// resolves (with `value`), with every other one waiting then; after a release, wait() waits
// for the next.
// `done`: a latch that, once released, stays open (wait() then resolves at once), for work
// that happens once (a reproduction computed, a map filled in).
export function latch({ done = false } = {}) {
  let waiters = [];
  let open = false;
  return {
    wait: () => (open ? Promise.resolve() : new Promise((resolve) => { waiters.push(resolve); })),
    release(value) {
      if (done) open = true;
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve(value);
    },
  };
}
