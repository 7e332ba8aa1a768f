// The npm package's TypeScript declarations, written from the engine's own tables: schema()
// (the single run's inputs) and fleetSchema() (the fleet request's, service and occ). Every
// input's name, type, choices, nullability, presence and default comes from a table row
// (docs/engine.md §4), so a row added to the engine is a member of the types at the next
// build, and nothing here lists the inputs.
//
// The results' other members (events, attempts, metrics, a sweep's points, a fleet's totals
// and timeline) are not in those tables; their shapes are SPEC.md §5, docs/engine.md §3 and
// §5 and FLEET.md §8, written below once, with each result's echo (`inputs`, `request`)
// typed from the tables. tests/node/package.test.js holds both halves to the engine: real
// results and echoes, typed as these declarations say, must type-check with no member
// missing or left over.

const quote = (s) => JSON.stringify(s);
const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name));

function doc(row, indent) {
  const parts = [row.description ? `${row.description.replace(/[.;:]$/, '')}.` : ''];
  if (row.unit) parts.push(`Unit: ${row.unit}.`);
  if (row.type === 'number') {
    parts.push(`${row.whole ? 'A whole number' : 'A number'} from ${row.min} to ${row.max}.`);
  }
  if (row.type === 'string') parts.push(`${row.minLength} to ${row.maxLength ?? 'any number of'} code points.`);
  if (row.type === 'list') parts.push(`${row.minItems} to ${row.maxItems ?? 'any number of'} items${row.distinct ? ', each once' : ''}.`);
  if (row.type === 'http-date') parts.push('An HTTP-date (RFC 9110).');
  if ('default' in row) parts.push(`Default: ${JSON.stringify(row.default)}.`);
  if (row.onlyWhen) parts.push(`Only with ${row.onlyWhen.field}: ${JSON.stringify(row.onlyWhen.value)}.`);
  if (row.requiredWhen) parts.push(`Required when ${row.requiredWhen.field} is ${JSON.stringify(row.requiredWhen.value)}.`);
  if (row.sparse) parts.push('Echoed only when given and not the default.');
  const text = parts.filter(Boolean).join(' ').replace(/\*\//g, '* /');
  return `${indent}/** ${text} */\n`;
}

// `mode`: 'input' (what a caller may give: defaults may be left out) or 'echo' (what a result's
// echo holds: every field with its default filled in, docs/engine.md §4).
function typeOf(row, mode, indent) {
  let t;
  switch (row.type) {
    case 'boolean': t = 'boolean'; break;
    case 'number': t = 'number'; break;
    case 'string': case 'http-date': t = 'string'; break;
    case 'choice': t = row.choices.map((c) => quote(c.name)).join(' | '); break;
    case 'list': {
      const item = typeOf(row.items, row.items.type === 'object' && mode === 'echo' ? 'entry' : mode, indent);
      t = `Array<${item}>`;
      break;
    }
    // An object whose default is {} and that is sparse (docs/servers.md §2's balancer and keyStore in
    // compute()) echoes only its members that differ from their defaults: each may be absent.
    case 'object': t = objectType(row.members, mode === 'echo' && row.sparse && isEmptyObject(row.default) ? 'entry' : mode, indent); break;
    case 'variant': t = variantType(row, mode, indent); break;
    default: throw new Error(`types.mjs: a row of type ${row.type} (${row.name}), which this does not know`);
  }
  return row.nullable ? `${t} | null` : t;
}

// Is a member optional? In an input, unless the table requires it; in an echo, when it may be
// left out: a field whose onlyWhen rule does not hold, one without a default (script), a sparse
// member (echoed only when not its default: the fleet gates' rule choices), and any
// member of a list's object items ('entry': a script entry echoes only what differs);
// 'echo-all' is a variant's members in an echo, every one there.
function optional(row, mode) {
  if (mode === 'input') return !row.required;
  if (mode === 'echo-all') return Boolean(row.sparse); // a variant's members, in an echo: all there but the sparse
  if (mode === 'entry') return true;
  return Boolean(row.onlyWhen) || Boolean(row.sparse) || !('default' in row);
}

const isEmptyObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

function objectType(members, mode, indent, extra = '') {
  const inner = `${indent}  `;
  const lines = members.map((m) => `${doc(m, inner)}${inner}${key(m.name)}${optional(m, mode) ? '?' : ''}: ${typeOf(m, mode, inner)};\n`);
  return `{\n${extra}${lines.join('')}${indent}}`;
}

// A variant: one object per variant, its discriminator the variant's name. In an input the
// first (default) variant's discriminator and its members' defaults may be left out; in any
// other variant every member without a default must be given (docs/engine.md §4).
function variantType(row, mode, indent) {
  const inner = `${indent}  `;
  return row.variants.map((v, i) => {
    const first = i === 0;
    const disc = `${inner}/** ${v.description.replace(/\*\//g, '* /')} */\n${inner}${key(row.discriminator)}${mode === 'input' && first ? '?' : ''}: ${quote(v.name)};\n`;
    // A sparse member may be left out of any variant (docs/servers.md §2's trigger.servers).
    const members = v.members.map((m) => ({ ...m, required: m.required || (!m.sparse && !(first && 'default' in m)) }));
    return objectType(members, mode === 'input' ? 'input' : 'echo-all', indent, disc);
  }).join(' | ');
}

function table(name, rows, comment, mode, narrow = {}) {
  const members = rows.map((r) => (narrow[r.name] ? { ...r, ...narrow[r.name] } : r));
  return `/** ${comment} */\nexport interface ${name} ${objectType(members, mode, '')}\n`;
}

// The declarations: types.d.ts (every type), retrylab.d.mts (the ES modules' default export)
// and retrylab.d.ts (the classic scripts' `module.exports`).
export function declarations({ schema, fleetSchema }) {
  const version = schema.engine;
  const workload = (rows) => rows.find((r) => r.name === 'workload');
  if (!workload(fleetSchema.fleet) || !workload(fleetSchema.occ)) throw new Error('types.mjs: the fleet tables have no workload row');
  // The service table's workload may be left out (its default); the occ table's must say occ.
  const service = { workload: { type: 'choice', choices: [{ name: 'service' }], required: false } };
  const occ = { workload: { type: 'choice', choices: [{ name: 'occ' }], required: true } };
  const generated = [
    table('Inputs', schema.inputs, 'compute()\'s inputs (SPEC.md §2, docs/engine.md §2): any field left out takes its default. From schema().', 'input'),
    table('InputsEcho', schema.inputs, 'A result\'s `inputs`: every field with its default filled in (SPEC.md §5). From schema().', 'echo'),
    table('ServiceRequest', fleetSchema.fleet, 'fleet()\'s request for the service workload (FLEET.md §3). From fleetSchema().fleet.', 'input', service),
    table('ServiceRequestEcho', fleetSchema.fleet, 'A service fleet result\'s `request`: every field filled in. From fleetSchema().fleet.', 'echo', { workload: { ...service.workload, required: true } }),
    table('OccRequest', fleetSchema.occ, 'fleet()\'s request for the occ workload (FLEET.md §7). From fleetSchema().occ.', 'input', occ),
    table('OccRequestEcho', fleetSchema.occ, 'An occ fleet result\'s `request`: every field filled in. From fleetSchema().occ.', 'echo', occ),
  ];
  const names = ['Inputs', 'InputsEcho', 'ServiceRequest', 'ServiceRequestEcho', 'OccRequest', 'OccRequestEcho', ...RESULT_NAMES];
  const types = `// Retry Lab's engine ${version}: TypeScript declarations written by packages/retrylab/types.mjs
// from the engine's schema() and fleetSchema(). Do not edit: rebuild.

${generated.join('\n')}
${RESULTS}`;
  const esm = `// Retry Lab's engine ${version} as an ES module: \`import RetryLabEngine from 'retrylab'\`.
export * from './types.js';
import type { Engine } from './types.js';
/** Starts an engine (compiles the WebAssembly module once, then a fresh instance per call). */
declare function RetryLabEngine(): Promise<Engine>;
export default RetryLabEngine;
export { RetryLabEngine };
`;
  const cjs = `// Retry Lab's engine ${version} as node's require() gives it: \`require('retrylab')()\`.
import type * as T from './types.js';
/** Starts an engine (compiles the WebAssembly module once, then a fresh instance per call). */
declare function RetryLabEngine(): Promise<T.Engine>;
declare namespace RetryLabEngine {
${names.map((n) => `  export type ${n} = T.${n};`).join('\n')}
}
export = RetryLabEngine;
`;
  return { types, esm, cjs };
}

// The results' members beyond the echo (SPEC.md §5, docs/engine.md §3 and §5, FLEET.md §8).
const RESULT_NAMES = ['Engine', 'EngineError', 'EngineFailure', 'RunEvent', 'Attempt', 'Metrics', 'Herd', 'ComputeSuccess',
  'ComputeResult', 'ValidateResult', 'SweepField', 'SweepRequest', 'SweepPoint', 'SweepBoundary', 'SweepSuccess', 'SweepResult',
  'FleetRequest', 'FleetTotals', 'FleetBin', 'FleetRecovery', 'ServiceSuccess', 'OccRun', 'OccSuccess', 'FleetSuccess',
  'FleetResult', 'SchemaRow', 'Schema', 'FleetSchema', 'Outcome', 'StopReason'];

const RESULTS = `/** An error: the field's path, a stable code, a sentence naming the field, the sentence without its subject (docs/engine.md §4). */
export interface EngineError {
  field: string;
  code: string;
  message: string;
  detail: string;
}

/** What every entry point answers for inputs it cannot run: it never throws. */
export interface EngineFailure {
  ok: false;
  errors: EngineError[];
}

export type Outcome = 'success' | 'unknown' | 'failed';
export type StopReason = 'success' | 'not-retryable' | 'write-without-key' | 'attempt-limit' | 'wait-budget' | 'deadline';

/** An event of the run, in time order (SPEC.md §5; call, give-up, cancel and orphan: docs/layers.md §7). */
export interface RunEvent {
  tMs: number;
  kind: 'send' | 'commit' | 'replay' | 'conflict' | 'server-error' | 'request-lost' | 'response-lost' | 'receive' | 'timeout' | 'deadline' | 'wait' | 'stop' | 'call' | 'give-up' | 'cancel' | 'orphan' | 'refused' | 'reset';
  /** The attempt's number; null for an event of no attempt (a stack's call, give-up or stop). */
  attempt: number | null;
  text: string;
  /** With a stack of layers (docs/layers.md §7): the event's layer (1 the top) and its path. */
  layer?: number;
  path?: string;
  /** With servers (docs/servers.md §7.2): the server of the event's attempt. */
  host?: number;
}

/** One attempt (SPEC.md §5, docs/engine.md §5). */
export interface Attempt {
  n: number;
  startMs: number;
  endMs: number;
  /** null for an upper layer's attempt (a call to the layer below, docs/layers.md §7). */
  server: string | null;
  commitMs: number | null;
  effect: string | null;
  clientSaw: string;
  waitAfterMs: number | null;
  waitRule: string | null;
  ceilingMs: number | null;
  draw: number | null;
  retryAfter: { raw: string; waitMs: number | null; note: 'seconds' | 'date' | 'past' | 'unusable' } | null;
  waitKind: 'header' | 'backoff' | 'none';
  /** What made the wait's figure (docs/engine.md §5): 'rule' is the backoff rule's figure alone (under full jitter, ceilingMs × draw). */
  waitShape: 'rule' | 'minimum' | 'immediate' | 'header' | 'above-header' | 'header-over-max' | 'none';
  scriptIndex: number | null;
  scriptRepeats: boolean | null;
  /** 'cancelled' (a hedged or cancelled attempt, docs/throttling.md §6) and 'given-up' (a layer's "do not retry", docs/layers.md §4.4). */
  clientClass: 'success' | 'timeout' | '429' | '5xx' | '4xx' | 'other' | 'cancelled' | 'given-up' | 'refused' | 'reset';
  chargeNumber: number | null;
  /** The client received the answer of the script entry drawn (docs/engine.md §5): its headers are the ones read. */
  scripted: boolean;
  /** With a stack of layers (docs/layers.md §7): the attempt's layer, path, the key it carried and its call's deadline. */
  layer?: number;
  path?: string;
  key?: string | null;
  callDeadlineMs?: number | null;
  /** With hedging (docs/throttling.md §6): whether this attempt is a hedged copy. */
  hedge?: boolean;
  /** With servers (docs/servers.md §7.2): the server the attempt was sent to. */
  host?: number;
}

/** One server's counts in a single run (docs/servers.md §7.2). */
export interface ServerMetrics {
  host: number;
  attempts: number;
  charges: number;
  replays: number;
  conflicts: number;
  refused: number;
  aborted: number;
  dropped: number;
  answersLost: number;
  duplicates: number;
}

/** One layer's counts (docs/layers.md §7). */
export interface LayerMetrics {
  name: string;
  calls: number;
  attempts: number;
  retries: number;
  cancelled: number;
  orphaned: number;
}

/** The run's metrics (SPEC.md §5). */
export interface Metrics {
  attempts: number;
  charges: number;
  replays: number;
  elapsedMs: number;
  waitingMs: number;
  outcome: Outcome;
  stopReason: StopReason;
  refusedWaitMs: number | null;
  duplicates: number;
  lookupNeeded: boolean;
  /** "success", "error 400" (the status), "timeout" or "not-sent". */
  agentReport: string;
  /** With a stack of layers (docs/layers.md §7). */
  layers?: LayerMetrics[];
  orphanAttempts?: number;
  orphanCharges?: number;
  lastWorkMs?: number;
  /** With hedging (docs/throttling.md §6.1). */
  hedges?: number;
  lateAnswers?: number;
  /** With servers (docs/servers.md §7.2): one row per server. */
  servers?: ServerMetrics[];
}

/** Many callers (SPEC.md §6): present when callers > 1. */
export interface Herd {
  callers: number;
  notRetried: number;
  bucketMs: number;
  buckets: number[];
  occupied: number;
  fullest: number;
}

export interface ComputeSuccess {
  ok: true;
  /** The engine's version (docs/versions.md). */
  engine: string;
  inputs: InputsEcho;
  events: RunEvent[];
  attempts: Attempt[];
  metrics: Metrics;
  herd?: Herd;
}

export type ComputeResult = ComputeSuccess | EngineFailure;

export interface ValidateResult {
  ok: boolean;
  errors: EngineError[];
}

/** A field a sweep varies: a number input (the engine sweeps deadlineMs, clientTimeoutMs, baseBackoffMs, responseMs and maxRetries, and names vary in an error otherwise: docs/engine.md §3). */
export type SweepField = { [K in keyof Inputs]-?: NonNullable<Inputs[K]> extends number ? K : never }[keyof Inputs];

/** sweep()'s request (docs/engine.md §3). */
export interface SweepRequest {
  inputs?: Inputs;
  vary: SweepField;
  from: number;
  to: number;
  /** 2 to 1,000. */
  points: number;
}

export interface SweepPoint {
  value: number;
  attempts: number;
  charges: number;
  outcome: Outcome;
  elapsedMs: number;
  replays: number;
  agentReport: string;
  stopReason: StopReason;
}

export interface SweepBoundary {
  value: number;
  before: string;
  after: string;
  chargesBefore: number;
  chargesAfter: number;
  text: string;
}

export interface SweepSuccess {
  ok: true;
  engine: string;
  vary: SweepField;
  inputs: InputsEcho;
  points: SweepPoint[];
  boundaries: SweepBoundary[];
}

export type SweepResult = SweepSuccess | EngineFailure;

export type FleetRequest = ServiceRequest | OccRequest;

/** The service workload's totals (FLEET.md §8). */
export interface FleetTotals {
  requests: number;
  succeeded: number;
  failed: {
    'not-retryable': number;
    'attempt-limit': number;
    deadline: number;
    'gate-quota': number;
    'gate-bucket': number;
    'gate-throttle': number;
    'gate-budget': number;
    'circuit-open': number;
    /** Only with gates.local (docs/throttling.md §5). */
    'local-throttle'?: number;
    unfinished: number;
  };
  successRate: number;
  attempts: number;
  firstAttempts: number;
  retries: number;
  load: number;
  /** With a stack of layers (docs/layers.md §9.2): server attempts per created request, and each layer's counts. */
  attemptsPerRequest?: number;
  layers?: LayerMetrics[];
  served: number;
  cancelled: number;
  shed: number;
  outageRejected: number;
  /** With server.admission (docs/throttling.md §3). */
  throttled?: number;
  /** With gates.admissionControl (docs/throttling.md §7). */
  admissionRejected?: number;
  late: number;
  wastedServiceMs: number;
  charges: number;
  replays: number;
  duplicateCharges: number;
  latencyMs: { p50: number | null; p90: number | null; p99: number | null; max: number | null };
  endMs: number;
  /** With servers or faults (docs/servers.md §8.3): the rows' sums, and one row per server. */
  refused?: number;
  partitioned?: number;
  aborted?: number;
  answersLost?: number;
  servers?: FleetServerTotals[];
}

/** One server's totals (docs/servers.md §8.3). */
export interface FleetServerTotals {
  attempts: number;
  served: number;
  succeeded: number;
  failed: number;
  shed: number;
  outageRejected: number;
  cancelled: number;
  refused: number;
  partitioned: number;
  aborted: number;
  answersLost: number;
  late: number;
  okInTime: number;
  wastedServiceMs: number;
  charges: number;
  replays: number;
  duplicateCharges: number;
  meanServiceMs: number | null;
  meanResidenceMs: number | null;
}

/** One server's counts in a bin (docs/servers.md §8.3). */
export interface FleetServerBin {
  attempts: number;
  okInTime: number;
  late: number;
  served: number;
  shed: number;
  outageRejected: number;
  refused: number;
  partitioned: number;
  aborted: number;
  queue: number;
  inService: number;
}

/** One bin of the timeline (FLEET.md §8). */
export interface FleetBin {
  created: number;
  firstAttempts: number;
  retries: number;
  /** With a stack of layers (docs/layers.md §9.2): each layer's attempts sent in the bin. */
  layerAttempts?: number[];
  succeeded: number;
  failed: number;
  timeouts: number;
  shed: number;
  outageRejected: number;
  served: number;
  /** With server.admission (docs/throttling.md §3). */
  throttled?: number;
  /** With gates.admissionControl (docs/throttling.md §7). */
  admissionRejected?: number;
  late: number;
  /** With gates.adaptive (docs/throttling.md §4, §4.1). */
  gateWaitMs?: number;
  limiting?: number;
  sendRate?: number | null;
  queue: number;
  inService: number;
  tokens: number | null;
  /** The attempts the servers could finish in the bin, every worker busy (docs/fleet.md); null for no bound. */
  capacity: number | null;
  /** With servers or faults (docs/servers.md §8.3). */
  servers?: FleetServerBin[];
}

/** The recovery verdict (FLEET.md v3 §8): five-bin windows. */
export interface FleetRecovery {
  triggerEndMs: number;
  recoveredAtMs: number | null;
  metastable: boolean;
  disrupted: boolean;
  /** With servers or faults (docs/servers.md §8.3): each server's verdict on the run's disturbance. */
  servers?: Array<{ recoveredAtMs: number | null; metastable: boolean; disrupted: boolean }>;
}

export interface ServiceSuccess {
  ok: true;
  engine: string;
  request: ServiceRequestEcho;
  totals: FleetTotals;
  timeline: { binMs: number; bins: FleetBin[] };
  recovery: FleetRecovery | null;
}

export interface OccRun {
  makespanMs: number;
  writes: number;
  failures: number;
}

export interface OccSuccess {
  ok: true;
  engine: string;
  request: OccRequestEcho;
  runs: OccRun[];
  mean: OccRun;
}

export type FleetSuccess = ServiceSuccess | OccSuccess;
export type FleetResult = FleetSuccess | EngineFailure;

/** A row of the input tables (docs/engine.md §4). */
export interface SchemaRow {
  name: string;
  type: 'boolean' | 'number' | 'string' | 'choice' | 'http-date' | 'list' | 'object' | 'variant';
  group: string;
  unit: string | null;
  description: string;
  nullable: boolean;
  required: boolean;
  default?: unknown;
  whole?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number | null;
  choices?: Array<{ name: string; description: string }>;
  minItems?: number;
  maxItems?: number | null;
  distinct?: boolean;
  items?: SchemaRow;
  members?: SchemaRow[];
  discriminator?: string;
  variants?: Array<{ name: string; description: string; members: SchemaRow[] }>;
  onlyWhen?: { field: string; value: unknown };
  requiredWhen?: { field: string; value: unknown };
  /** Echoed only when given and not the default (docs/engine.md §4). */
  sparse?: true;
}

export interface Schema {
  engine: string;
  inputs: SchemaRow[];
  scenarios: Record<string, unknown[]>;
  limits: Record<string, number>;
}

export interface FleetSchema {
  engine: string;
  fleet: SchemaRow[];
  occ: SchemaRow[];
  limits: Record<string, number>;
}

/** The engine (README, "The engine"; docs/engine.md). Plain objects in and out; never throws. */
export interface Engine {
  compute(inputs?: Inputs): ComputeResult;
  validate(inputs?: Inputs): ValidateResult;
  sweep(request: SweepRequest): SweepResult;
  /** The fleet (FLEET.md). retrylab/engine (the page's smaller file) answers an EngineFailure naming retrylab-fleet.js. */
  fleet(request?: FleetRequest): FleetResult;
  schema(): Schema;
  fleetSchema(): FleetSchema | EngineFailure;
  compareMetrics(): unknown;
  /** Two ok results compared (docs/compare.md §2): { ok, engine, of, inputs, metrics, sideEffectChanged, outcomeChanged } or an EngineFailure. */
  compareResults(request: { before: unknown; after: unknown; of?: 'run' | 'fleet' }): unknown;
  version(): string;
  heapInUse(): number;
  heapTop(): number;
  limits(): Record<string, number>;
  restarts(): number;
}
`;
