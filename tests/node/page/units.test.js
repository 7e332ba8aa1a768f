// The page's pure functions in node: the DOM-free views, the playback maths and the state
// steps, fed by the real engine's results (never by hand-made ones).

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../browser/lib/dist.js';
import { loadEngineInNode, random } from '../../browser/lib/engine.js';
import { findAll, h, textOf, toMarkup } from '../../../web/dom.js';
import { packRows, timelineView } from '../../../web/views/timeline.js';
import { tableView } from '../../../web/views/table.js';
import { lanesEndHeight, lanesView, lanesWidth, steps } from '../../../web/views/lanes.js';
import { statementView } from '../../../web/views/statement.js';
import { eventsView } from '../../../web/views/events.js';
import { metricsView, verdictText, verdictTone } from '../../../web/views/metrics.js';
import { frameView, makeIds } from '../../../web/views/controls.js';
import {
  INSPECTION_SECONDS, advance, momentPhrase, nextEvent, play, restart, runSpan, secondsAt, warpOf, seek, shownAt,
} from '../../../web/playback.js';
import { explorableControls, fieldsFromInputs, initialState, inputsFromFields, withFields } from '../../../web/state.js';
import { CONTROLLED, STORY, computeStory, factsOf, formatFact } from '../../../web/story.js';

let engine;
let compute;
before(async () => {
  engine = await loadEngineInNode();
  compute = (inputs) => engine.compute(inputs);
});

// Inputs across the page's controls and a little beyond, for sweeps.
function randomInputs(next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  return {
    scenario: pick(['response-lost', 'request-lost', 'outage-503-twice', 'bad-request-400']),
    maxRetries: Math.floor(next() * 12),
    baseBackoffMs: pick([0, 1, 100, 500, 2500, 5000, 123.456]),
    clientTimeoutMs: pick([1, 50, 199, 200, 500, 3000, 10000]),
    deadlineMs: pick([0, 150, 199, 200, 2000, 3500, 4000, 10000, 20000, 86400000]),
    idempotencyKey: next() < 0.5,
    retryOn: pick([['timeout', '5xx'], ['timeout', '429', '5xx', '4xx'], []]),
  };
}

const numericAttrs = ['x', 'y', 'x1', 'x2', 'y1', 'y2', 'width', 'height', 'cx', 'cy', 'r'];

describe('dom', () => {
  test('views cannot carry inline styles or handlers, and text is escaped', () => {
    assert.throws(() => toMarkup(h('p', { style: 'color:red' })), /style/);
    assert.throws(() => toMarkup(h('img', { onerror: 'x()' })), /onerror/);
    assert.equal(toMarkup(h('p', { title: '"<b>' }, '<img src=x onerror=alert(1)>')),
      '<p title="&quot;&lt;b&gt;">&lt;img src=x onerror=alert(1)&gt;</p>');
    assert.equal(textOf(h('p', null, 'a', h('b', null, 'b'), 3)), 'ab3');
  });
});

describe('timeline', () => {
  test('packed labels never overlap within a row and stay inside the plot', () => {
    const next = random(7);
    for (let round = 0; round < 200; round += 1) {
      const width = 300 + Math.floor(next() * 900);
      const labels = Array.from({ length: 1 + Math.floor(next() * 12) }, () => ({
        x: 64 + next() * (width - 80), text: 'x'.repeat(1 + Math.floor(next() * 30)), align: next() < 0.3 ? 'middle' : 'start', priority: next() < 0.1 ? 1 : 0,
      }));
      const { placed, rows, omitted } = packRows(labels, width);
      // Every label is placed (rows are not limited here) but one wider than the plot.
      assert.equal(placed.length, labels.filter((l) => l.text.length * 7.4 <= width - 64 - 16).length);
      assert.equal(placed.length + omitted.length, labels.length);
      for (const a of placed) {
        assert.ok(a.row < rows);
        assert.ok(a.right <= width - 16 + 1e-9, 'inside the right edge');
        for (const b of placed) {
          if (a !== b && a.row === b.row) assert.ok(a.right <= b.left || b.right <= a.left, `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`);
        }
      }
    }
  });

  test('a label with a short form takes it where the full one finds no row, and one that finds none is left out', () => {
    const wide = { x: 64, text: 'x'.repeat(60), short: 'short', align: 'start' };
    const { placed } = packRows([wide], 320);
    assert.deepEqual(placed.map((l) => l.text), ['short'], 'wider than the plot: its short form');
    const first = { x: 70, text: 'a'.repeat(10), align: 'start' };
    const second = { x: 80, text: 'b'.repeat(20), short: 'b', align: 'start' };
    const third = { x: 90, text: 'c'.repeat(10), align: 'start' };
    const packed = packRows([first, second, third], 800, 1);
    assert.deepEqual(packed.placed.map((l) => l.text), ['a'.repeat(10)], 'one row: the first label, nothing overlapping it');
    assert.deepEqual(packRows([first, second], 800, 2).placed.map((l) => [l.text, l.row]), [['a'.repeat(10), 0], ['b'.repeat(20), 1]]);
  });

  test('the opening run: bars where the attempts are, the marks the seed names', () => {
    const result = compute({});
    const { tree, scale } = timelineView(result, { width: 800 });
    const x = (t) => scale.x0 + (t / scale.max) * scale.plot;
    const bars = findAll(tree, (n) => n.tag === 'rect' && /tl-bar/.test(n.attrs.class));
    assert.deepEqual(bars.map((b) => [b.attrs.x, b.attrs.x + b.attrs.width]), [[x(0), x(3000)], [x(3500), x(3700)]]);
    const texts = findAll(tree, (n) => n.tag === 'text').map(textOf);
    for (const expected of ['attempt 1 · timeout', 'attempt 2 · 200', 'wait 500 ms (500 ms × 2^0)', 'charge #1, response lost', 'charge #2', 'deadline 10,000 ms →']) {
      assert.ok(texts.includes(expected), `"${expected}" in ${JSON.stringify(texts)}`);
    }
    assert.match(tree.attrs['aria-label'], /attempt 1 from 0 ms to 3,000 ms, client saw timeout; wait 500 ms; attempt 2 from 3,500 ms to 3,700 ms/);
    assert.match(tree.attrs['aria-label'], /Server: at 200 ms, charge #1, response lost; at 3,700 ms, charge #2\./);
  });

  // Issue 35 item 10: "HTTP 400, retrying every failure" drew its waits' labels in rows above
  // the bars, pushing the attempts' labels two and three rows away from their bars.
  test('a wait’s label stands on its arrow where it fits, and the attempts’ labels take the rows nearest the bars', () => {
    const result = compute({ scenario: 'bad-request-400', retryOn: ['timeout', '429', '5xx', '4xx'] });
    const { tree } = timelineView(result, { width: 810 });
    const bars = findAll(tree, (n) => n.tag === 'rect' && /tl-bar/.test(n.attrs.class));
    const barTop = bars[0].attrs.y;
    const barBottom = barTop + bars[0].attrs.height;
    const texts = (cls) => findAll(tree, (n) => n.tag === 'text' && n.attrs.class && n.attrs.class.split(' ').includes(cls));
    const waits = texts('tl-label-wait');
    const onArrow = waits.filter((t) => t.attrs.y > barTop && t.attrs.y < barBottom);
    assert.ok(onArrow.length >= 2, `waits on their arrows: ${onArrow.map(textOf)}`);
    for (const t of onArrow) {
      // Between the bars it belongs to: the wait after attempt k lies between bars k and k + 1.
      const k = result.attempts.findIndex((a) => textOf(t).startsWith(`wait ${a.waitAfterMs.toLocaleString('en-US')} ms`));
      assert.ok(t.attrs.x > bars[k].attrs.x + bars[k].attrs.width && t.attrs.x < bars[k + 1].attrs.x, textOf(t));
    }
    const attemptYs = texts('tl-label-attempt').map((t) => t.attrs.y);
    const waitsAbove = waits.filter((t) => t.attrs.y < barTop).map((t) => t.attrs.y);
    assert.ok(attemptYs.length >= 2);
    for (const y of waitsAbove) assert.ok(y < Math.min(...attemptYs), 'a wait above the bars stands above every attempt’s label');
    assert.equal(Math.max(...attemptYs), barTop - 6 - 18 + 12, 'attempt labels in the row nearest the bars');
  });

  test('the lanes: an attempt the deadline cuts ends there, its clock run out (docs/engine.md §2.1)', () => {
    // attemptStart "before-deadline", a 2,000 ms deadline: attempt 1 commits at 200, its answer
    // is lost, and the client stops listening at 2,000 with a deadline event, not a timeout.
    const result = compute({ attemptStart: 'before-deadline', deadlineMs: 2000 });
    const lanes = lanesView(result, { width: 800 });
    assert.equal(findAll(lanes, (n) => n.attrs && n.attrs.class === 'lanes-clock lanes-clock-out').length, 1);
    assert.ok(findAll(lanes, (n) => n.tag === 'text').map(textOf).includes('timeout'));
    const span = findAll(lanes, (n) => n.tag === 'line' && /lanes-span/.test(n.attrs.class))[0];
    assert.equal(span.attrs.class, 'lanes-span lanes-span-timeout', 'the span ends as a wait in vain');
  });

  test('a close deadline is drawn as a line at its time', () => {
    const result = compute({ deadlineMs: 4000 });
    const { tree, scale } = timelineView(result, { width: 800 });
    const line = findAll(tree, (n) => n.tag === 'line' && n.attrs.class === 'tl-deadline')[0];
    assert.equal(line.attrs.x1, scale.x0 + (4000 / scale.max) * scale.plot);
    assert.ok(findAll(tree, (n) => n.tag === 'text').map(textOf).includes('deadline 4,000 ms'));
  });

  test('any run the controls can make draws finite geometry inside the frame', () => {
    const next = random(2024);
    for (let i = 0; i < 300; i += 1) {
      const inputs = randomInputs(next);
      const result = compute(inputs);
      assert.equal(result.ok, true, JSON.stringify(inputs));
      for (const width of [300, 390, 1100]) {
        const { tree } = timelineView(result, { width });
        for (const node of findAll(tree, (n) => n.tag !== undefined)) {
          for (const name of numericAttrs) {
            if (node.attrs[name] === undefined) continue;
            assert.ok(Number.isFinite(node.attrs[name]), `${name}=${node.attrs[name]} for ${JSON.stringify(inputs)}`);
          }
          if (node.tag === 'text' && node.attrs['text-anchor'] !== 'middle') {
            assert.ok(node.attrs.x >= 0 && node.attrs.x <= width, `text "${textOf(node)}" at x=${node.attrs.x} of ${width}`);
          }
        }
      }
      // The other views take every such run too.
      assert.equal(findAll(eventsView(result), (n) => n.tag === 'li').length, result.events.length);
      assert.equal(findAll(tableView(result), (n) => n.tag === 'tr').length, 1 + Math.max(1, result.attempts.length));
      assert.match(textOf(metricsView(result)), new RegExp(`Attempts${result.metrics.attempts}`));
      // The lanes, at the start, midway and at the end: finite geometry, and at the end one
      // message group per attempt and one statement line per charge.
      const { events } = result;
      for (const [tMs, shown] of [[0, 0], [result.metrics.elapsedMs / 2, Math.floor(events.length / 2)], [Infinity, Infinity]]) {
        for (const width of [300, 1100]) {
          const lanes = lanesView(result, { width, tMs, shown, reduced: next() < 0.5 });
          for (const node of findAll(lanes, (n) => n.tag !== undefined)) {
            for (const name of numericAttrs) {
              if (node.attrs[name] !== undefined) assert.ok(Number.isFinite(node.attrs[name]), `lanes: ${name}=${node.attrs[name]} for ${JSON.stringify(inputs)}`);
            }
            if (node.attrs.d !== undefined) assert.doesNotMatch(node.attrs.d, /NaN|Infinity/, `lanes: d for ${JSON.stringify(inputs)}`);
          }
          if (shown === Infinity) assert.equal(findAll(lanes, (n) => n.attrs && n.attrs.class === 'lanes-attempt').length, result.attempts.length);
        }
      }
      // The height the page holds the lanes to from the run's start (withLanes) is the drawing's
      // at its end, found without drawing it; and a drawing given its steps is the one that
      // computes them.
      for (const width of [300, 640, 1100]) {
        const end = lanesView(result, { width });
        assert.equal(lanesEndHeight(result, width), end.attrs.height, `end height at ${width} for ${JSON.stringify(inputs)}`);
        const geometry = steps(result, lanesWidth(width) - 78);
        const tMs = result.metrics.elapsedMs / 3;
        const shown = Math.floor(events.length / 3);
        assert.deepEqual(lanesView(result, { width, tMs, shown, geometry }), lanesView(result, { width, tMs, shown }));
      }
      assert.equal(findAll(statementView(result), (n) => n.tag === 'li').length, result.inputs.operation === 'charge' ? result.metrics.charges : 0);
    }
  });
});

describe('verdict', () => {
  test('the seed story in one line each', () => {
    const story = computeStory(compute);
    const lines = Object.fromEntries(Object.entries(story).map(([k, r]) => [k, [verdictText(r), verdictTone(r)]]));
    assert.deepEqual(lines, {
      opening: ['Reports success, charged twice', 'bad'],
      key: ['Reports success, charged once', 'good'],
      'no-retries': ['Reports a timeout, charged once', 'bad'],
      'deadline-4000': ['Reports success, charged twice', 'bad'],
      'deadline-3500': ['Reports a timeout, charged once', 'bad'],
      'timeout-500': ['Reports success, charged twice', 'bad'],
      // docs/throttling.md §6.1: the hedged copy charges again without a key; with one it replays.
      hedged: ['Reports success, charged twice', 'bad'],
      'hedged-key': ['Reports success, charged once', 'good'],
      outage: ['Reports success, charged once', 'good'],
      'outage-one-retry': ['Reports error 503, no charge', 'neutral'],
      'outage-deadline': ['Reports error 503, no charge', 'neutral'],
      'bad-request': ['Reports error 400, no charge', 'neutral'],
      'bad-request-every': ['Reports error 400, no charge', 'neutral'],
      // docs/servers.md §11.1: two replicas, the key on, the retry on server 1: a shared store
      // replays; per-server keys charge again; a replicated store by its lag: 3,300 replays,
      // 3,301 answers 409 (one charge the agent reports as an error), 3,501 charges again.
      servers: ['Reports success, charged once', 'good'],
      'servers-per-server': ['Reports success, charged twice', 'bad'],
      'servers-lag-replay': ['Reports success, charged once', 'good'],
      'servers-lag-409': ['Reports error 409, charged once', 'bad'],
      'servers-lag-charge': ['Reports success, charged twice', 'bad'],
    });
  });
});

describe('playback', () => {
  test('Next event steps through shared instants one event at a time, then parks at the end', () => {
    const result = compute({});
    let pb = restart(result);
    const seen = [];
    for (let i = 0; i < result.events.length; i += 1) {
      pb = nextEvent(result, pb);
      seen.push([pb.shown, Math.round(pb.s * 1000) / 1000]);
    }
    const span = runSpan(result);
    assert.equal(span, 3700);
    assert.deepEqual(seen.map(([n]) => n), result.events.map((_, i) => i + 1));
    assert.deepEqual(seen.map(([, s]) => s), result.events.map((e) => Math.round(secondsAt(e.tMs, warpOf(result)) * 1000) / 1000));
    pb = nextEvent(result, pb);
    assert.equal(pb.s, INSPECTION_SECONDS);
    assert.equal(pb.playing, false);
  });

  test('seeking reveals exactly the events at or before the playhead', () => {
    const result = compute({});
    assert.equal(shownAt(result, 0), 0);
    assert.equal(shownAt(result, secondsAt(200, warpOf(result))), 3);
    assert.equal(shownAt(result, secondsAt(2999, warpOf(result))), 3);
    assert.equal(shownAt(result, secondsAt(3000, warpOf(result))), 5);
    assert.equal(shownAt(result, 60), result.events.length);
    assert.equal(seek(result, restart(result), 99).s, 60);
    assert.equal(seek(result, restart(result), -5).s, 0);
  });

  // Issue 35 item 8: Play goes event by event, each event held DWELL (0.6 s), the run's time
  // between two events played as a pause of as long, at least MIN_MOVE (0.6 s) and at most
  // MAX_PAUSE (2 s). The opening run's events (SPEC §9) fall at 0, 200, 200, 3,000, 3,000, 3,500,
  // 3,700, 3,700 and 3,700 ms: pauses of 0, 0.6 (0.2 s, raised), 0, 2 (2.8 s, capped), 0, 0.6
  // (0.5 s), 0.6 (0.2 s), 0 and 0 s before them, so at 1× they are revealed at 0, 1.2, 1.8, 4.4,
  // 5.0, 6.2, 7.4, 8.0 and 8.6 s and Play ends at 9.2 s (not 60 s).
  test('Play reveals the opening run event by event, a short dwell each and the 2.8 s wait a 2 s pause named as a gap; Play at the end starts over', async () => {
    const { DWELL, MAX_PAUSE, MIN_MOVE, beatAt } = await import('../../../web/playback.js');
    assert.deepEqual([DWELL, MAX_PAUSE, MIN_MOVE], [0.6, 2, 0.6]);
    const result = compute({});
    assert.deepEqual(result.events.map((e) => e.tMs), [0, 200, 200, 3000, 3000, 3500, 3700, 3700, 3700]);
    const reveals = [0, 1.2, 1.8, 4.4, 5.0, 6.2, 7.4, 8.0, 8.6];
    const start = { shown: 0, tMs: 0 };
    for (const reduced of [false, true]) {
      reveals.forEach((at, k) => {
        if (at > 0) assert.equal(beatAt(result, start, at - 0.01, reduced).shown, k, `${reduced}: before ${at} s`);
        assert.equal(beatAt(result, start, at + 0.01, reduced).shown, k + 1, `${reduced}: at ${at} s`);
      });
      assert.equal(beatAt(result, start, 9.19, reduced).ended, false);
      assert.equal(beatAt(result, start, 9.21, reduced).ended, true);
      // The gap: between the dwell after the lost response (1.8 + 0.6 = 2.4 s) and the timeout (4.4 s).
      assert.equal(beatAt(result, start, 2.39, reduced).gap, null);
      assert.deepEqual(beatAt(result, start, 2.41, reduced).gap, { fromMs: 200, toMs: 3000 });
      assert.deepEqual(beatAt(result, start, 4.39, reduced).gap, { fromMs: 200, toMs: 3000 });
      assert.equal(beatAt(result, start, 5.8, reduced).gap, null, 'a 0.5 s stretch is no gap');
    }
    // Gliding, the playhead moves through the pause; with reduced motion it rests on the lost
    // response (200 ms) until the timeout's reveal.
    const w = warpOf(result);
    const mid = beatAt(result, start, 3.0, false).s;
    assert.ok(mid > secondsAt(200, w) && mid < secondsAt(3000, w), String(mid));
    assert.equal(beatAt(result, start, 3.0, true).s, secondsAt(200, w));
    // The clock: ticks of 0.1 s at 1× end the run after 9.2 s; at 2× after half as long (the
    // ticks' sum in floating point may need one more).
    for (const [speed, ticks] of [[1, 92], [2, 46]]) {
      let pb = play(result, { ...restart(result), speed });
      let n = 0;
      while (pb.playing) { pb = advance(result, pb, 0.1); n += 1; }
      assert.ok(n === ticks || n === ticks + 1, `${speed}×: ${n} ticks`);
      assert.equal(pb.s, 60);
      assert.equal(pb.shown, result.events.length);
    }
    let pb = play(result, seek(result, restart(result), 60));
    assert.equal(pb.s, 0);
    assert.equal(pb.playing, true);
  });

  test('a long quiet stretch is one pause of at most 2 s, and Play from the middle goes on from there', async () => {
    const { DWELL, MAX_PAUSE, beatAt } = await import('../../../web/playback.js');
    // A 20 s timeout and no deadline: the wait from the lost response to it is 19.8 s of the run.
    const result = compute({ clientTimeoutMs: 20000, deadlineMs: null });
    const times = result.events.map((e) => e.tMs);
    let longest = 0;
    for (let wall = 0, last = 0, shown = 0; wall < 60; wall += 0.01) {
      const beat = beatAt(result, { shown: 0, tMs: 0 }, wall);
      if (beat.shown !== shown) { longest = Math.max(longest, wall - last); last = wall; shown = beat.shown; }
      if (beat.ended) break;
    }
    assert.ok(longest <= DWELL + MAX_PAUSE + 0.02, `no event waits more than dwell + 2 s (${longest})`);
    assert.ok(times.some((t, i) => i && t - times[i - 1] > 10000), 'the run has a long quiet stretch');
    // Play pressed at the third event: the fourth comes after the capped pause alone.
    const w = warpOf(result);
    const from = seek(result, restart(result), secondsAt(times[2], w));
    assert.equal(from.shown, 3);
    let pb = play(result, from);
    pb = advance(result, pb, MAX_PAUSE - 0.05);
    assert.equal(pb.shown, 3);
    assert.ok(pb.gap && pb.gap.toMs - pb.gap.fromMs > 10000);
    pb = advance(result, pb, 0.1);
    assert.equal(pb.shown, 4);
  });

  test('with reduced motion the playhead only rests on event times', () => {
    const result = compute({ scenario: 'outage-503-twice' });
    const span = runSpan(result);
    const allowed = new Set([0, 60, ...result.events.map((e) => secondsAt(e.tMs, warpOf(result)))]);
    let pb = play(result, restart(result, 1));
    while (pb.playing) {
      pb = advance(result, pb, 0.05, true);
      assert.ok(allowed.has(pb.s), `rested at ${pb.s}`);
    }
  });

  test('the moment in words', () => {
    const result = compute({});
    assert.equal(momentPhrase(result, 0, 0), 'before attempt 1 is sent');
    assert.equal(momentPhrase(result, 3500, 6), 'attempt 2 in flight');
    assert.equal(momentPhrase(result, 3200, 5), 'waiting before attempt 2');
    assert.equal(momentPhrase(result, 3700, 9), 'run over: success');
    const none = compute({ deadlineMs: 100 });
    assert.equal(none.metrics.attempts, 0);
    assert.match(momentPhrase(none, 0, 1), /^nothing sent: /);
  });
});

describe('state', () => {
  test('fields round-trip through inputs, and an unreadable number is named', () => {
    const opening = compute({});
    const controls = explorableControls(engine.schema());
    const fields = fieldsFromInputs(opening.inputs, controls);
    assert.deepEqual(fields, {
      scenario: 'response-lost', idempotencyKey: false, retryOn: 'timeouts-5xx',
      maxRetries: '3', baseBackoffMs: '500', clientTimeoutMs: '3000', deadlineMs: '10000',
    });
    const { inputs, errors } = inputsFromFields(fields, controls);
    assert.deepEqual(errors, {});
    assert.deepEqual(compute(inputs), opening);
    assert.deepEqual(inputsFromFields({ ...fields, maxRetries: 'abc', clientTimeoutMs: ' ' }, controls).errors, {
      maxRetries: 'Enter a number.', clientTimeoutMs: 'Enter a number of milliseconds.',
    });
    // An empty deadline is no deadline (the policy traces run without one), not an error.
    const noDeadline = inputsFromFields({ ...fields, deadlineMs: ' ' }, controls);
    assert.deepEqual([noDeadline.errors, noDeadline.inputs.deadlineMs], [{}, null]);
    assert.equal(fieldsFromInputs({ ...opening.inputs, retryOn: ['429'] }, controls).retryOn, null, 'a set no control offers selects neither');
  });

  test('a refused value keeps the last good run and carries the engine\'s message', () => {
    const state = initialState(compute({}), engine.schema());
    const bad = withFields(state, { maxRetries: '101' }, compute);
    assert.equal(bad.result, state.result);
    assert.match(bad.errors.maxRetries, /\S/);
    assert.equal(bad.fields.maxRetries, '101');
    const good = withFields(bad, { maxRetries: '0' }, compute);
    assert.deepEqual(good.errors, {});
    assert.equal(good.result.metrics.outcome, 'unknown');
    assert.equal(good.playback.s, 0);
  });

  test('a change rewinds playback and keeps the speed', () => {
    let state = initialState(compute({}), engine.schema());
    state = { ...state, playback: { ...seek(state.result, state.playback, 30), speed: 4 } };
    state = withFields(state, { idempotencyKey: true }, compute);
    assert.deepEqual([state.playback.s, state.playback.shown, state.playback.playing, state.playback.speed], [0, 0, false, 4]);
  });
});

describe('the article', () => {
  const html = readFileSync(join(REPO, 'site/index.html'), 'utf8');

  test('every computed number it quotes resolves against its story step', () => {
    const story = computeStory(compute);
    const slots = [...html.matchAll(/data-story="([^"]+)" data-fact="([^"]+)"(?: data-format="([^"]+)")?/g)];
    assert.ok(slots.length > 40, `found ${slots.length} slots`);
    for (const [, step, fact, format] of slots) {
      assert.ok(story[step], `step ${step}`);
      assert.notEqual(formatFact(factsOf(story[step]), fact, format), null, `${step} ${fact} ${format}`);
    }
  });

  test('every Try it button names a story step, and every step has a button or a control', () => {
    const buttons = [...html.matchAll(/data-try="([^"]+)"/g)].map((m) => m[1]);
    // A step a control reaches (story.js CONTROLLED) has the control's box in the article instead.
    for (const step of Object.keys(CONTROLLED)) assert.match(html, new RegExp(`<div class="try[^"]*" data-step="${step}"`), `${step}'s control box`);
    assert.deepEqual([...new Set([...buttons, ...Object.values(CONTROLLED).flat()])].sort(), Object.keys(STORY).sort());
  });

  test('the page has no inline script or style, and names no other host', () => {
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'inline script');
    assert.doesNotMatch(html, /<style|\sstyle=/i, 'inline style');
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'inline handler');
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i, 'another host');
  });

  test('the explorable\'s frame has unique ids under a prefix', () => {
    const controls = explorableControls(engine.schema());
    const frame = frameView(makeIds('x-'), controls, fieldsFromInputs(compute({}).inputs, controls));
    const ids = findAll(frame, (n) => n.attrs && n.attrs.id).map((n) => n.attrs.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every((id) => id.startsWith('x-')));
  });
});

describe('timeline at scale', () => {
  test('a hundred attempts keep the timeline a readable height, every bar and mark still drawn', () => {
    const result = compute({ scenario: 'bad-request-400', retryOn: ['timeout', '429', '5xx', '4xx'], maxRetries: 100, baseBackoffMs: 0, deadlineMs: null });
    assert.equal(result.attempts.length, 101);
    const { tree } = timelineView(result, { width: 800 });
    assert.ok(tree.attrs.height < 260, `height ${tree.attrs.height}`);
    assert.equal(findAll(tree, (n) => n.tag === 'rect' && /tl-bar/.test(n.attrs.class)).length, 101);
    assert.equal(findAll(tree, (n) => n.tag === 'g' && n.attrs.class === 'tl-server-mark').length, 101);
  });
});

describe('loading whole inputs', () => {
  test('inputs no control owns ride along and survive a later control change', async () => {
    const { withInputs } = await import('../../../web/state.js');
    let state = initialState(compute({}), engine.schema());
    state = withInputs(state, { operation: 'create', responseMs: 300, retryOn: ['timeout'] }, compute);
    assert.equal(state.fields.retryOn, null);
    assert.deepEqual([state.extra.operation, state.extra.responseMs, state.extra.retryOn], ['create', 300, ['timeout']]);
    state = withFields(state, { maxRetries: '1' }, compute);
    assert.deepEqual([state.result.inputs.operation, state.result.inputs.responseMs, state.result.inputs.maxRetries], ['create', 300, 1]);
    assert.deepEqual(state.result.inputs.retryOn, ['timeout']);
  });
});

describe('playback rhythm', () => {
  test('the warp is exact at every instant, rises with time, and gives no stretch more than its QUIET share', async () => {
    const { QUIET, msAt, gapAt } = await import('../../../web/playback.js');
    for (const inputs of [{}, { scenario: 'outage-503-twice' }, { scenario: 'bad-request-400', retryOn: ['timeout', '5xx', '4xx'] }]) {
      const result = compute(inputs);
      const w = warpOf(result);
      for (const t of w.instants) assert.equal(msAt(secondsAt(t, w), w), t, `${t} ms round-trips`);
      let last = -1;
      for (let s = 0; s <= 60; s += 0.25) {
        const t = msAt(s, w);
        assert.ok(t >= last, 'time never runs backwards');
        last = t;
      }
      // A stretch's share of the 60 s is its length over the sum of all lengths, each capped.
      const capped = w.instants.slice(1).map((t, i) => Math.min(t - w.instants[i], QUIET * w.span));
      const total = capped.reduce((a, b) => a + b, 0);
      capped.forEach((c, i) => assert.ok(Math.abs((w.knots[i + 1] - w.knots[i]) - (c / total) * 60) < 1e-9));
    }
    // The opening run's wait for its timeout (200 → 3,000 ms) is a marked gap; its first 200 ms are not.
    const opening = compute({});
    assert.deepEqual(gapAt(opening, 20), { fromMs: 200, toMs: 3000 });
    assert.equal(gapAt(opening, 5), null);
  });
});

describe('also in force', () => {
  test('an object input (hedging) is listed member by member, in the table’s words, never as [object Object]', async () => {
    const { inForce } = await import('../../../web/views/in-force.js');
    const result = compute({ maxRetries: 0, hedging: { maxAttempts: 4, delayMs: 500 } });
    const row = inForce(result, {}, engine.schema()).find((r) => r.name === 'hedging');
    // The echo fills kind "a6" and nonFatal [] (docs/throttling.md §6.1).
    assert.equal(row.value, 'Kind a6 · Max attempts 4 · Delay 500 ms · Non fatal none');
  });
});
