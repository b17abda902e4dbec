// What bench.mjs and ab.mjs measure with, defined once so that both measure alike.

/** CPU time of this process (ns), not wall time: the machine's other load does not count. */
export const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/** The median round (the upper middle one of an even count; the benches take odd counts). */
export const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

/** A time per call as the tables print it. */
export const fmt = (ns) => (ns >= 10000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
