// The timing loop scripts/bench runs on WebAssembly, in node (node.js here) and in Chromium
// (browser.mjs passes this file's text to the page), the same as native.cpp's, both following
// `rule`, bench/cases.json's "rounds" (written there once): each round runs the call enough
// times to take at least rule.roundMs (once for slow calls), rule.measured rounds
// (rule.slowMeasured when a call takes over rule.slowCallMs) after a warm-up of such rounds
// (below), and the figure is the median round's time per call. `check` summarises the result as native.cpp does, so the report can see that
// every side computed the same.
//
// `freshEngine()` gives a new engine (its own WebAssembly instance): the peak heap of a call is
// the rise of heapTop() over one call on a fresh engine.
/* exported measureCases */
async function measureCases(cases, rule, freshEngine, now) {
  var warmRule = rule.warmup;
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
  function medianOf(list) {
    var sorted = list.slice().sort(function (a, b) { return a - b; });
    return sorted[sorted.length >> 1];
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
    var perRound = Math.max(1, Math.ceil(rule.roundMs / once));
    var rounds = once > rule.slowCallMs ? rule.slowMeasured : rule.measured;
    var round = function () {
      var s = now();
      for (var i = 0; i < perRound; ++i) call();
      return (now() - s) / perRound;
    };
    // The warm-up (session 5, BENCHMARKS.md): rounds like the measured ones until they stop
    // getting faster, bounded below and above in rounds and time (rule.warmup; none for slow
    // calls, whose rounds are one call). A browser runs a module's first calls on its baseline
    // compiler and swaps in optimised code as its background threads finish it: in Chromium the
    // opening run's first rounds took 0.1-0.5 ms a call, the same calls 0.02-0.05 ms once
    // optimised, and on a loaded machine the swap came after the 15 rounds had all run. The
    // rounds are then sized again from the warm-up's last 5, since the first estimate may have
    // timed the slow calls (27 calls a round of 0.067 ms, once). The figure is the steady state
    // after the warm-up; what the warm-up's first round took (the calls a reader makes first)
    // and how many rounds it needed are reported beside it.
    var warm = [];
    var span = warmRule.window;
    if (once <= rule.slowCallMs) {
      var warmStart = now();
      for (;;) {
        warm.push(round());
        var w = warm.length, spent = now() - warmStart;
        if (w >= warmRule.maxRounds || spent >= warmRule.maxMs) break;
        if (w >= warmRule.minRounds && w >= 2 * span && spent >= warmRule.minMs &&
            medianOf(warm.slice(w - span)) >= (1 - warmRule.fasterBy) * medianOf(warm.slice(w - 2 * span, w - span))) break;
      }
      perRound = Math.max(1, Math.ceil(rule.roundMs / Math.max(medianOf(warm.slice(-span)), 1e-6)));
    }
    var times = [];
    for (var r = 0; r < rounds; ++r) times.push(round());
    records.push({ name: item.name, ms: medianOf(times), rounds: rounds, callsPerRound: perRound,
      warmupRounds: warm.length, firstRoundMs: warm.length ? warm[0] : null,
      warmup: warm.map(function (x) { return Number(x.toPrecision(3)); }),
      peakHeapBytes: peak, check: check(first) });
  }
  return records;
}

if (typeof module === 'object' && module.exports) module.exports = { measureCases };
