// The timing loop scripts/bench runs on WebAssembly, in node (node.js here) and in Chromium
// (browser.mjs passes this file's text to the page), the same as native.cpp's: each round runs
// the call enough times to take at least 20 ms (once for slow calls), 15 rounds (7 when a call
// takes over 200 ms), and the figure is the median round's time per call. `check` summarises
// the result as native.cpp does, so the report can see that every side computed the same.
//
// `freshEngine()` gives a new engine (its own WebAssembly instance): the peak heap of a call is
// the rise of heapTop() over one call on a fresh engine.
/* exported measureCases */
async function measureCases(cases, freshEngine, now) {
  function check(result) {
    if (!result || !result.ok) return 'not ok';
    if (result.points) return 'points ' + result.points.length + ', boundaries ' + result.boundaries.length;
    var out = 'attempts ' + result.metrics.attempts + ', charges ' + result.metrics.charges;
    if (result.herd) {
      out += ', not retried ' + result.herd.notRetried + ', fullest ' + result.herd.fullest +
        ', buckets ' + result.herd.buckets.length;
    }
    return out;
  }
  var records = [];
  var engine = await freshEngine();
  for (var c = 0; c < cases.length; ++c) {
    var item = cases[c];
    var call = item.entry === 'sweep' ? function () { return engine.sweep(item.inputs); }
                                      : function () { return engine.compute(item.inputs); };
    var fresh = await freshEngine();
    var before = fresh.heapTop ? fresh.heapTop() : NaN;
    var first = item.entry === 'sweep' ? fresh.sweep(item.inputs) : fresh.compute(item.inputs);
    var peak = fresh.heapTop ? fresh.heapTop() - before : NaN;

    // How long one call takes: calls doubled until they take 5 ms. A page's clock counts in
    // steps of up to 0.1 ms, so one fast call can time as 0 — and 20 ms / 0 asked for hundreds
    // of millions of calls a round (a run that never ended, once). Found twice, the first time
    // only to warm up: an engine's first call compiles its code, and one slow first call (over
    // 5 ms) set the rounds from it (6 calls a round for Chromium's compute({}) in the runs of
    // record at db0d2cd). The rounds' own figure did not change with it (BENCHMARKS.md).
    var start, elapsed, calls;
    for (var pass = 0; pass < 2; ++pass) {
      calls = 1;
      for (;;) {
        start = now();
        for (var k = 0; k < calls; ++k) call();
        elapsed = now() - start;
        if (elapsed >= 5 || calls >= 1048576) break;
        calls *= 2;
      }
    }
    var once = Math.max(elapsed / calls, 1e-6);
    var perRound = Math.max(1, Math.ceil(20 / once));
    var rounds = once > 200 ? 7 : 15;
    var times = [];
    for (var r = 0; r < rounds; ++r) {
      start = now();
      for (var i = 0; i < perRound; ++i) call();
      times.push((now() - start) / perRound);
    }
    times.sort(function (a, b) { return a - b; });
    records.push({ name: item.name, ms: times[times.length >> 1], rounds: rounds, callsPerRound: perRound,
      peakHeapBytes: peak, check: check(first) });
  }
  return records;
}

if (typeof module === 'object' && module.exports) module.exports = { measureCases };
