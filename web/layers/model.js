// "Retries across layers", pure: the reader's stack (each layer a real client's preset, or the
// page's agent loop, with the few settings the section shows) as the engine's inputs
// (docs/layers.md §2), and the stacks the section's buttons load. Which fields a layer takes,
// their choices and bounds come from the engine's table (the `layers` row of schema()); the
// figures drawn come from the run's result (metrics.layers, the attempt rows), never from here.

import { PRESETS, presetById } from '../clients/presets.js';

// The agent's tool loop: the page's own, not a real client's (docs/layers.md §8.5's layer 1):
// 2 retries, 2 s to wait for each tool call, no wait before a retry, no overall deadline.
export const AGENT_ID = 'agent';
export const AGENT_POLICY = Object.freeze({ maxRetries: 2, clientTimeoutMs: 2000, baseBackoffMs: 0, deadlineMs: null });

// The server's answers: the engine's scenarios (their words from its table) but the script,
// and one of the section's own, a script of one 503 that repeats: every attempt fails
// (docs/layers.md §8.1).
export const ALWAYS_FAILS = 'always-fails';
export function serverChoices(schema) {
  const row = schema.inputs.find((r) => r.name === 'scenario');
  return [
    ...row.choices.filter((c) => c.name !== 'script').map((c) => ({ value: c.name, label: c.description })),
    { value: ALWAYS_FAILS, label: '503 every time: the server always fails' },
  ];
}

// The `layers` row of the engine's table, and its members by name.
export function layerTable(schema) {
  const row = schema.inputs.find((r) => r.name === 'layers');
  const members = row.items.members;
  return { row, maxLayers: row.maxItems, member: (name) => members.find((m) => m.name === name), names: members.map((m) => m.name) };
}

// A layer's name in the trace: the agent's, or the preset's short name.
export const clientName = (client) => (client === AGENT_ID ? 'agent' : presetById(client).short);

// What a client does with keys unless the reader says otherwise: a client that sends a key of
// its own (the preset's idempotencyKey: Stripe's) mints one per call; below the top, any other
// passes on the headers it is given; the agent at the top has none.
export const keyOf = (client, position) => {
  if (client !== AGENT_ID && presetById(client).inputs.idempotencyKey) return 'mint';
  return position === 0 ? 'none' : 'pass';
};

// A layer of the reader's stack, as the client loads: the preset's own retries and timeout.
export function layerFor(client, position) {
  const policy = client === AGENT_ID ? AGENT_POLICY : presetById(client).inputs;
  return { client, maxRetries: policy.maxRetries, clientTimeoutMs: policy.clientTimeoutMs, key: keyOf(client, position), giveUp: 'last-failure', cancel: 'propagate' };
}

// The engine's inputs for a stack: each layer the client's policy (the fields a layer takes,
// as the table names them), then the reader's settings; the run's own fields at the engine's
// defaults, the server as chosen.
export function stackInputs(stack, table) {
  const layers = stack.layers.map((layer) => {
    const policy = layer.client === AGENT_ID ? AGENT_POLICY : presetById(layer.client).inputs;
    const out = { name: clientName(layer.client) };
    for (const name of table.names) if (Object.hasOwn(policy, name)) out[name] = policy[name];
    return { ...out, maxRetries: layer.maxRetries, clientTimeoutMs: layer.clientTimeoutMs, key: layer.key, giveUp: layer.giveUp, cancel: layer.cancel };
  });
  const server = stack.server === ALWAYS_FAILS ? { scenario: 'script', script: [{ status: 503 }] } : { scenario: stack.server };
  return { ...server, layers };
}

// The stack a run's inputs hold (a link's), when the section can show it: each layer named
// after one of its clients and holding that client's policy but for the settings the section
// shows. Else null: the section keeps its own stack and says why.
export function stackOf(inputs, table) {
  if (!inputs || !Array.isArray(inputs.layers)) return null;
  const only = inputs.scenario === 'script' && inputs.script.length === 1 ? inputs.script[0] : null;
  const server = inputs.scenario !== 'script' ? inputs.scenario
    : only && Object.keys(only).length === 1 && only.status === 503 ? ALWAYS_FAILS : null;
  if (!server) return null;
  const layers = [];
  for (const given of inputs.layers) {
    const client = given.name === clientName(AGENT_ID) ? AGENT_ID : (PRESETS.find((p) => p.short === given.name) || {}).id;
    if (!client) return null;
    layers.push({ client, maxRetries: given.maxRetries, clientTimeoutMs: given.clientTimeoutMs, key: given.key, giveUp: given.giveUp, cancel: given.cancel });
  }
  const stack = { server, layers };
  // Only if that stack is this run: every other field of each layer as its client's.
  const again = stackInputs(stack, table).layers;
  const same = again.every((layer, i) => Object.entries(layer).every(([name, value]) => JSON.stringify(inputs.layers[i][name]) === JSON.stringify(value)));
  return same ? stack : null;
}

// The stacks the section's buttons load.
const NO_TIMEOUT_MS = 86400000;
export const STORIES = {
  // docs/layers.md §8.5 with Stripe's client as the payment SDK: it mints a key per call.
  story: () => ({ server: 'response-lost', layers: [layerFor(AGENT_ID, 0), layerFor('stripe-current', 1)] }),
  // The agent mints one key for the tool call and Stripe's client sends it (setdefault).
  'key-down': () => ({ server: 'response-lost', layers: [{ ...layerFor(AGENT_ID, 0), key: 'mint' }, { ...layerFor('stripe-current', 1), key: 'pass' }] }),
  // The SRE book's three layers of four attempts: an agent (with no timeout of its own) over the
  // OpenAI Python SDK over a mesh that retries 503 (Istio ≤ 1.23), each set to 3 retries.
  sre: (server) => ({
    server,
    layers: [
      { ...layerFor(AGENT_ID, 0), maxRetries: 3, clientTimeoutMs: NO_TIMEOUT_MS },
      { ...layerFor('openai-python', 1), maxRetries: 3 },
      { ...layerFor('istio-123', 2), maxRetries: 3 },
    ],
  }),
  // The SRE book's advice on that stack: the layer that gives up answers "do not retry"
  // (docs/layers.md §8.2), so only the bottom layer retries.
  'one-layer': (server) => {
    const stack = STORIES.sre(server);
    stack.layers[2].giveUp = 'do-not-retry';
    return stack;
  },
};
