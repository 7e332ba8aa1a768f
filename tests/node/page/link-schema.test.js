// Issue 13's "done when", the link's half: an input added to the engine's table is carried by
// a link and by <retry-lab>'s attributes with nothing in web/ changed. The page's link format
// (web/share/codec.js) is built from the engine's schema(); here it is built from the real
// engine's table with throwaway rows added, one of each kind a link writes, and the link,
// the attributes and readLink (with an engine that accepts the new inputs) carry them.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngineInNode } from '../../browser/lib/engine.js';
import { linkCodec } from '../../../web/share/codec.js';
import { readLink } from '../../../web/share/link.js';
import { validateInputs } from '../../../web/validate.js';

let engine;
before(async () => { engine = await loadEngineInNode(); });

// Rows shaped as schema() writes them (docs/engine.md §4), with names no engine input has.
const THROWAWAY = [
  { name: 'throwawayMs', type: 'number', group: 'client', unit: 'ms', description: 'a scratch wait', nullable: true, required: false, default: 250, whole: false, min: 0, max: 86400000 },
  { name: 'throwawaySwitch', type: 'boolean', group: 'client', unit: null, description: 'a scratch switch', nullable: false, required: false, default: false },
  {
    name: 'throwawayMode', type: 'choice', group: 'client', unit: null, description: 'a scratch choice', nullable: false, required: false, default: 'calm',
    choices: [{ name: 'calm', description: '' }, { name: 'wild & free', description: '' }],
  },
  {
    name: 'throwawayList', type: 'list', group: 'client', unit: null, description: 'scratch numbers', nullable: false, required: false, default: [],
    minItems: 0, maxItems: 10, distinct: false, items: { name: '', type: 'number', group: '', unit: null, description: 'a number', nullable: false, required: false, whole: true, min: 0, max: 9 },
  },
];
const NEW = { throwawayMs: 300, throwawaySwitch: true, throwawayMode: 'wild & free', throwawayList: [1, 2, 3] };

// The real engine's table with the throwaway rows added after its own.
const extended = () => {
  const schema = engine.schema();
  return { ...schema, inputs: [...schema.inputs, ...THROWAWAY] };
};

// The engine as a scratch build with those rows would behave: it validates and echoes them
// (at their defaults when left out), and runs the rest as the real engine does.
function scratchEngine(schema) {
  const defaults = Object.fromEntries(THROWAWAY.map((row) => [row.name, row.default]));
  const split = (inputs) => {
    const own = {};
    const rest = {};
    for (const [k, v] of Object.entries(inputs)) (k in defaults ? own : rest)[k] = v;
    return { own, rest };
  };
  return {
    schema: () => schema,
    validate(inputs) {
      const { own, rest } = split(inputs);
      const errors = validateInputs(engine, rest);
      if (own.throwawayMs !== undefined && own.throwawayMs !== null && !(own.throwawayMs >= 0)) {
        errors.push({ field: 'throwawayMs', code: 'out-of-range', message: 'throwawayMs must be at least 0.', detail: 'must be at least 0.' });
      }
      return errors.length ? { ok: false, errors } : { ok: true, errors: [] };
    },
    compute(inputs) {
      const { own, rest } = split(inputs);
      const result = engine.compute(rest);
      return result.ok ? { ...result, inputs: { ...result.inputs, ...defaults, ...own } } : result;
    },
  };
}

test('a link writes an input the table adds, leaves it out at its default, and reads it back', () => {
  const codec = linkCodec(extended());
  for (const row of THROWAWAY) assert.ok(codec.fieldNames.includes(row.name), `${row.name} is in the link format`);
  assert.deepEqual(Object.fromEntries(THROWAWAY.map((r) => [r.name, codec.defaults[r.name]])), Object.fromEntries(THROWAWAY.map((r) => [r.name, r.default])));
  const echo = { ...engine.compute({ maxRetries: 1 }).inputs, ...Object.fromEntries(THROWAWAY.map((r) => [r.name, r.default])) };
  assert.equal(codec.encodeLink(echo), 'v=1&maxRetries=1', 'at their defaults, the new inputs are left out');
  const link = codec.encodeLink({ ...echo, ...NEW });
  assert.equal(link, 'v=1&maxRetries=1&throwawayMs=300&throwawaySwitch=true&throwawayMode=wild%20%26%20free&throwawayList=1,2,3');
  const parsed = codec.parseLink(`#${link}`);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.inputs, { maxRetries: 1, ...NEW });
  assert.deepEqual(codec.parseLink('#v=1&throwawayMs=none').inputs, { throwawayMs: null }, 'a nullable number reads none');
  assert.deepEqual(codec.parseLink('#v=1&throwawaySwitch').inputs, { throwawaySwitch: true }, 'a bare switch reads true');
  assert.match(codec.parseLink('#v=1&throwawayMs=soon').problems[0].reason, /is not a number/);
});

test('the same table without the rows does not know them: the link format is the table', () => {
  const codec = linkCodec(engine.schema());
  const parsed = codec.parseLink('#v=1&throwawayMs=300');
  assert.deepEqual(parsed.inputs, {});
  assert.deepEqual(parsed.problems.map((p) => [p.key, p.reason]), [['throwawayMs', 'is not an input of the engine']]);
});

test('<retry-lab> takes the new inputs as kebab-case attributes', () => {
  const codec = linkCodec(extended());
  assert.equal(codec.fieldOfAttribute('throwaway-ms'), 'throwawayMs');
  assert.equal(codec.attributeOf('throwawayList'), 'throwaway-list');
  assert.ok(codec.attributes.includes('throwaway-switch'));
  assert.match(codec.attributeHint('throwawayms'), /did you mean throwaway-ms\?/);
  const read = codec.readPairs([['throwawayMs', '300'], ['throwawayMode', 'wild%20%26%20free']]);
  assert.deepEqual(read.inputs, { throwawayMs: 300, throwawayMode: 'wild & free' });
});

test('readLink carries the new inputs into the run, and the engine still judges them', () => {
  const scratch = scratchEngine(extended());
  const port = { codec: linkCodec(scratch.schema()), compute: scratch.compute, validate: (inputs) => validateInputs(scratch, inputs) };
  const read = readLink('#v=1&maxRetries=0&throwawayMs=300&throwawayList=4,5', port);
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.inputs, { maxRetries: 0, throwawayMs: 300, throwawayList: [4, 5] });
  assert.equal(read.result.inputs.throwawayMs, 300);
  assert.equal(read.result.metrics.attempts, 1, 'the rest of the link ran as the engine runs it');
  assert.equal(port.codec.encodeLink(read.result.inputs), 'v=1&maxRetries=0&throwawayMs=300&throwawayList=4,5', 'and the run writes the same link');
  const refused = readLink('#v=1&throwawayMs=-1&maxRetries=2', port);
  assert.deepEqual(refused.problems.map((p) => [p.key, p.value, p.reason]), [['throwawayMs', '-1', 'must be at least 0.']]);
  assert.deepEqual(refused.inputs, { maxRetries: 2 });
});
