// The release artifacts as their users meet them (README, "Install and package";
// docs/versions.md). scripts/package --no-build, the documented command, writes the npm
// tarball, the .deb and the site's tarball into a scratch folder; then:
// - npm: the tarball installs offline into a scratch project (it has no dependencies), runs
//   from node through require() and import, gives the repository's engine's results, and a
//   TypeScript file type-checks against it with tsc --noEmit while wrong inputs do not; the
//   engine's real results and echoes type-check as the declarations say, member for member;
// - deb: dpkg-deb -x into a scratch root, the installed retrysim runs, --help and the man page
//   list the same options, the man page renders without a warning;
// - site: the tarball is dist/ file for file, in one versioned folder, with relative URLs only;
// - one version: CMakeLists.txt, the engine, the page's footer, retrysim --version (installed),
//   the npm package (installed), the .deb's control file and the site's tarball agree.
// (tests/browser/package-element.test.js loads the installed element in Chromium.)
'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { before, after, test } = require('node:test');
const { repo, loadEngine, loadFleetEngine, retrysimPath } = require('./support.js');

const dist = process.env.RETRYLAB_DIST ? path.resolve(repo, process.env.RETRYLAB_DIST) : path.join(repo, 'dist');
const version = /project\(retrylab VERSION (\d+\.\d+\.\d+)/.exec(fs.readFileSync(path.join(repo, 'CMakeLists.txt'), 'utf8'))[1];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'retrylab-package-'));
const out = path.join(scratch, 'artifacts');

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 600000, ...options });
  if (r.error) throw r.error;
  return r;
}
function ok(command, args, options) {
  const r = run(command, args, options);
  assert.equal(r.status, 0, `${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

let artifacts;
before(() => {
  const env = { ...process.env };
  if (!env.RETRYLAB_NATIVE_BUILD_DIR) env.RETRYLAB_NATIVE_BUILD_DIR = path.resolve(path.dirname(retrysimPath), '..', '..');
  const r = ok(path.join(repo, 'scripts', 'package'), ['--no-build', '--out', out], { cwd: repo, env });
  artifacts = fs.readdirSync(out).filter((f) => !f.startsWith('.')).sort();
  process.stdout.write(`# scripts/package wrote ${artifacts.join(', ')}\n${r.stdout.replace(/^/gm, '# ')}\n`);
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const deb = () => path.join(out, artifacts.find((f) => f.endsWith('.deb')));

test('scripts/package writes the three artifacts, named for the version', () => {
  assert.equal(artifacts.length, 3, artifacts.join(', '));
  assert.ok(artifacts.includes(`retrylab-${version}.tgz`), 'the npm tarball');
  assert.ok(artifacts.includes(`retrylab-site-${version}.tar.gz`), 'the site');
  assert.match(artifacts.find((f) => f.endsWith('.deb')) || '', new RegExp(`^retrysim_${version.replace(/\./g, '\\.')}_[a-z0-9]+\\.deb$`));
});

// --- npm ------------------------------------------------------------------------------------
const project = path.join(scratch, 'project');
let installed; // node_modules/retrylab

function install() {
  if (installed) return installed;
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), '{ "name": "scratch", "private": true }\n');
  // --offline: a package with no dependencies needs no registry, and must not ask one.
  ok('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(out, `retrylab-${version}.tgz`)], { cwd: project });
  installed = path.join(project, 'node_modules', 'retrylab');
  return installed;
}

test('npm: the tarball holds the engine files, the element, its parts and CSS, ES modules, the types and the manifest', () => {
  const root = install();
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.equal(manifest.name, 'retrylab');
  assert.equal(manifest.version, version);
  assert.deepEqual(manifest.dependencies ?? {}, {}, 'no dependencies: it installs offline');
  for (const file of ['retrylab-engine.js', 'retrylab-fleet.js', 'retrylab-engine.mjs', 'retrylab-fleet.mjs',
    'retry-lab-element.js', 'retry-lab-element.mjs', 'retry-lab-compare.js', 'retrylab-fleet-section.js', 'retry-lab-fleet.css',
    'index.html', 'retrylab.d.ts', 'retrylab.d.mts', 'types.d.ts', 'retry-lab-element.d.mts', 'README.md', 'CHANGELOG.md']) {
    assert.ok(fs.existsSync(path.join(root, file)), `the package has ${file}`);
  }
  // The engine files are the site's, byte for byte (one build of the engine).
  for (const file of ['retrylab-engine.js', 'retrylab-fleet.js', 'retry-lab-element.js']) {
    assert.ok(fs.readFileSync(path.join(root, file)).equals(fs.readFileSync(path.join(dist, file))), `${file} is dist/'s`);
  }
  // Every target of the exports map exists.
  const targets = [];
  const walk = (v) => (typeof v === 'string' ? targets.push(v) : Object.values(v).forEach(walk));
  walk(manifest.exports);
  for (const t of targets) assert.ok(fs.existsSync(path.join(root, t)), `exports names ${t}, which is in the package`);
  // The README shows the one-tag embed and the node use.
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.match(readme, /<script src="node_modules\/retrylab\/retry-lab-element\.js" defer><\/script>/);
  assert.match(readme, /import RetryLabEngine from 'retrylab'/);
  assert.match(readme, /require\('retrylab'\)/);
});

test('npm: from node, require() and import give the repository engine\'s results, and retrylab/engine has no fleet', async () => {
  install();
  const inputs = [{}, { idempotencyKey: true }, { scenario: 'outage-503-twice', maxRetries: 1, jitter: 'full', seed: 7 }, { maxRetries: -1 }, { callers: 50, jitter: 'full' }];
  const fleets = [{}, { server: { dropStale: 'unfinishable' } }, { workload: 'occ', clients: 10, runs: 3 }];
  fs.writeFileSync(path.join(project, 'check.mjs'), `
import RetryLabEngine from 'retrylab';
import PageEngine from 'retrylab/engine';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const [esm, cjs, page] = await Promise.all([RetryLabEngine(), require('retrylab')(), PageEngine()]);
const inputs = ${JSON.stringify(inputs)};
const fleets = ${JSON.stringify(fleets)};
console.log(JSON.stringify({
  version: esm.version(),
  esm: inputs.map((i) => esm.compute(i)),
  cjs: inputs.map((i) => cjs.compute(i)),
  fleet: fleets.map((f) => esm.fleet(f)),
  sweep: esm.sweep({ vary: 'deadlineMs', from: 1000, to: 8000, points: 8 }),
  pageFleet: page.fleet({}),
  requireMain: require.resolve('retrylab'),
}));
`);
  const r = ok(process.execPath, ['check.mjs'], { cwd: project });
  const got = JSON.parse(r.stdout);
  const engine = await loadEngine();
  const fleetEngine = await loadFleetEngine();
  assert.equal(got.version, version);
  assert.deepEqual(got.esm, inputs.map((i) => JSON.parse(JSON.stringify(engine.compute(i)))));
  assert.deepEqual(got.cjs, got.esm);
  assert.equal(got.esm[1].metrics.charges, 1, 'an idempotency key: one charge (SPEC.md §3)');
  assert.equal(got.esm[3].ok, false);
  assert.equal(got.esm[3].errors[0].field, 'maxRetries');
  assert.deepEqual(got.fleet, fleets.map((f) => JSON.parse(JSON.stringify(fleetEngine.fleet(f)))));
  assert.equal(got.sweep.ok, true);
  assert.equal(got.pageFleet.ok, false, 'the page\'s engine file answers fleet() with an error');
  assert.match(JSON.stringify(got.pageFleet.errors), /retrylab-fleet\.js/);
  assert.equal(path.basename(got.requireMain), 'retrylab-fleet.js');
  // A path the exports map does not offer is not reachable.
  const deep = run(process.execPath, ['-e', "require('retrylab/retrylab-sections.js')"], { cwd: project });
  assert.notEqual(deep.status, 0);
  assert.match(deep.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
});

const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
function typeCheck(dir, files) {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [], skipLibCheck: false, exactOptionalPropertyTypes: false },
    files: Object.keys(files),
  }));
  return run(process.execPath, [tsc, '--noEmit', '-p', path.join(dir, 'tsconfig.json')], { cwd: dir });
}

test('npm: a TypeScript user\'s file type-checks against the installed package (tsc --noEmit), and wrong inputs are type errors', () => {
  install();
  assert.ok(fs.existsSync(tsc), 'typescript is a devDependency (npm ci)');
  const use = `import RetryLabEngine, { type Inputs, type FleetRequest, type ComputeResult } from 'retrylab';
import PageEngine from 'retrylab/engine';
import { ready } from 'retrylab/element';

export async function main(): Promise<number> {
  const engine = await RetryLabEngine();
  const inputs: Inputs = { scenario: 'script', script: [{ status: 200, lost: true }, { status: 200 }], jitter: 'proportional', jitterLow: 0.5, deadlineMs: null, retryOn: ['timeout', '5xx'] };
  const run: ComputeResult = engine.compute(inputs);
  let charges = 0;
  if (run.ok) {
    charges = run.metrics.charges;
    const outcome: 'success' | 'unknown' | 'failed' = run.metrics.outcome;
    const first: number | null = run.attempts[0].commitMs;
    const echoed: number = run.inputs.maxRetries;
    void outcome; void first; void echoed;
  } else {
    for (const e of run.errors) console.log(e.field, e.code);
  }
  const request: FleetRequest = { clients: 50, network: { dist: 'uniform', lo: 1, hi: 9 }, trigger: { kind: 'outage', startMs: 1000, endMs: 2000 }, gates: { bucket: { scope: 'fleet' } } };
  const fleet = engine.fleet(request);
  if (fleet.ok && 'recovery' in fleet && fleet.recovery) console.log(fleet.recovery.recoveredAtMs, fleet.recovery.disrupted);
  const occ = engine.fleet({ workload: 'occ', clients: 5 });
  if (occ.ok && 'mean' in occ) console.log(occ.mean.makespanMs);
  const sweep = engine.sweep({ vary: 'deadlineMs', from: 1000, to: 5000, points: 5 });
  if (sweep.ok) console.log(sweep.boundaries.map((b) => b.value));
  const page = await PageEngine();
  console.log(page.version(), engine.schema().inputs.length, (await ready).name);

  // @ts-expect-error an input the engine does not have
  engine.compute({ maxRetriez: 3 });
  // @ts-expect-error a number input given as text
  engine.compute({ maxRetries: '3' });
  // @ts-expect-error a choice the table does not list
  engine.compute({ jitter: 'wild' });
  // @ts-expect-error deadlineMs is nullable, idempotencyKey is not
  engine.compute({ idempotencyKey: null });
  // @ts-expect-error a fleet network variant needs its own members (uniform: lo and hi)
  engine.fleet({ network: { dist: 'uniform' } });
  // @ts-expect-error a workload the fleet table does not list
  engine.fleet({ workload: 'batch' });
  // @ts-expect-error a sweep varies a number input
  engine.sweep({ vary: 'scenario', from: 1, to: 2, points: 2 });
  // @ts-expect-error a result is narrowed by ok before its metrics are read
  console.log(run.metrics);
  return charges;
}
`;
  const cjs = `import RetryLabEngine = require('retrylab');
export async function charges(): Promise<number> {
  const engine = await RetryLabEngine();
  const inputs: RetryLabEngine.Inputs = { idempotencyKey: true };
  const run = engine.compute(inputs);
  return run.ok ? run.metrics.charges : -1;
}
`;
  // One tsc run (it takes most of this test's time) over the file as written, its CommonJS
  // twin, and the same file without its @ts-expect-error marks: the first two have no error,
  // and each wrong line of the third is one, so the declarations are not so loose that
  // anything passes.
  const checked = typeCheck(path.join(project, 'ts-use'), { 'use.mts': use, 'use.cts': cjs, 'bad.mts': use.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, '') });
  const errors = checked.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
  assert.deepEqual(errors.filter((l) => !l.startsWith('bad.mts(')), [], `tsc found errors in the files as written:\n${checked.stdout}${checked.stderr}`);
  assert.notEqual(checked.status, 0);
  assert.equal(errors.length, 8, errors.join('\n'));
});

test('npm: the engine\'s real results and echoes type-check as the declarations say, no member missing or left over', async () => {
  install();
  const engine = await loadEngine();
  const fleetEngine = await loadFleetEngine();
  const cases = JSON.parse(fs.readFileSync(path.join(repo, 'spec', 'conformance', 'cases.json'), 'utf8'));
  const list = Array.isArray(cases) ? cases : cases.cases;
  const fleetCases = JSON.parse(fs.readFileSync(path.join(repo, 'spec', 'conformance', 'fleet-cases.json'), 'utf8')).cases;
  const runs = [{}, { idempotencyKey: true }, { callers: 20, jitter: 'full' }, { scenario: 'script', script: [{ status: 429, retryAfter: '2' }, { status: 503, lost: true }, { dropped: true }, { status: 200 }], maxRetries: 4, retryOn: ['timeout', '429', '5xx'], honourRetryAfter: true }]
    .map((i) => engine.compute(i));
  // What the inputs add to a result beyond SPEC.md's run: a stack of layers (orphans, keys,
  // given-up calls), hedging of both kinds, and in the fleet the stack, hedging, the throttling
  // server and the adaptive and local gates (docs/layers.md, docs/throttling.md).
  const added = [
    { layers: [{ name: 'agent', maxRetries: 2, clientTimeoutMs: 1000, cancel: 'orphan', key: 'none' }, { name: 'SDK', key: 'mint', maxRetries: 2 }], responseMs: 1500 },
    { layers: [{ maxRetries: 1, giveUp: 'do-not-retry', inheritDeadline: true, deadlineMarginMs: 100 }, { maxRetries: 1 }], scenario: 'outage-503-twice' },
    { maxRetries: 0, hedging: { maxAttempts: 3, delayMs: 100, nonFatal: ['429', '5xx'] } },
    { hedging: { kind: 'per-try-timeout' }, clientTimeoutMs: 100, responseMs: 300 },
    // docs/servers.md §11.3: a replica that crashes under the work, and one cut off.
    { servers: { count: 2 }, keyStore: { scope: 'per-server' }, idempotencyKey: true, faults: [{ kind: 'crash', servers: [0], startMs: 100, endMs: 5000 }] },
    { servers: { count: 3, overrides: [{ index: 0, script: [{ status: 503 }] }] }, faults: [{ kind: 'partition', servers: [1], startMs: 0, endMs: 5000 }], retryOn: ['timeout', 'refused'] },
  ].map((i) => engine.compute(i));
  const addedFleet = [
    { durationMs: 5000, policy: { layers: [{ maxRetries: 1 }, { maxRetries: 2, cancel: 'orphan' }] } },
    { durationMs: 5000, policy: { maxRetries: 0, hedging: { kind: 'a6', maxAttempts: 2, delayMs: 20 } } },
    { durationMs: 5000, policy: { deadlineMs: 5000, hedging: { kind: 'per-try-timeout' } } },
    { durationMs: 5000, server: { admission: { scope: 'fleet', ratePerSecond: 50, burst: 5 } }, gates: { adaptive: {} } },
    { durationMs: 5000, server: { admission: { ratePerSecond: 20, burst: 20 } }, gates: { local: {} } },
    { durationMs: 5000, servers: { count: 3, overrides: [{ index: 0, failureRate: 1 }] }, balancer: { kind: 'two-choices' }, faults: [{ kind: 'crash', servers: [1], startMs: 1000, endMs: 2000 }], policy: { retryHost: 'previous-hosts' } },
  ].map((r) => fleetEngine.fleet(r));
  const good = list.map((c) => c.inputs ?? c.input).filter((i) => i && engine.compute(i).ok);
  const goodFleet = fleetCases.map((c) => c.request ?? c.inputs ?? c.input).filter((r) => r && fleetEngine.fleet(r).ok);
  assert.ok(good.length > 50, `${good.length} valid single-run cases`);
  assert.ok(goodFleet.length > 50, `${goodFleet.length} valid fleet cases`);
  const service = fleetEngine.fleet({ durationMs: 30000 });
  const noTrigger = fleetEngine.fleet({ trigger: null, durationMs: 5000, gates: { quota: {}, bucket: { scope: 'fleet' }, throttle: {}, budget: {}, breaker: {} } });
  const occ = fleetEngine.fleet({ workload: 'occ', clients: 4, runs: 2 });
  const sweep = engine.sweep({ vary: 'deadlineMs', from: 1000, to: 8000, points: 6 });
  const lit = (v) => JSON.stringify(v);
  const text = `import type * as T from 'retrylab';
export const runs: T.ComputeSuccess[] = ${lit([...runs, ...added])};
export const given: T.Inputs[] = ${lit(good)};
export const echoes: T.InputsEcho[] = ${lit(good.map((i) => engine.compute(i).inputs))};
export const fleetGiven: T.FleetRequest[] = ${lit(goodFleet)};
export const service: T.ServiceSuccess[] = ${lit([service, noTrigger, ...addedFleet])};
export const occ: T.OccSuccess = ${lit(occ)};
export const sweep: T.SweepSuccess = ${lit(sweep)};
export const failure: T.EngineFailure = ${lit(engine.compute({ maxRetries: -1, jitter: 'x' }))};
export const schema: T.Schema = ${lit(engine.schema())};
export const fleetSchema: T.FleetSchema = ${lit(fleetEngine.fleetSchema())};
`;
  for (const r of [...runs, ...added, service, noTrigger, ...addedFleet, occ, sweep]) assert.equal(r.ok, true, JSON.stringify(r.errors));
  const r = typeCheck(path.join(project, 'ts-results'), { 'results.mts': text });
  assert.equal(r.status, 0, `the engine's results do not match the declarations:\n${r.stdout.slice(0, 4000)}`);
});

// --- deb ------------------------------------------------------------------------------------
const root = path.join(scratch, 'root');
let retrysim;
function unpack() {
  if (retrysim) return retrysim;
  ok('dpkg-deb', ['-x', deb(), root]);
  retrysim = path.join(root, 'usr', 'bin', 'retrysim');
  return retrysim;
}
// The options --help lists: each line "  -x, --name ARG  text", its names flags with an argument
// in capitals or none (a line that starts like an option but is not one fails here).
const helpOptions = (help) => help.split('\n').filter((l) => /^ {2}-/.test(l)).map((line) => {
  const m = /^ {2}(-{1,2}[\w-]+(?: [A-Z]+)?(?:, -{1,2}[\w-]+(?: [A-Z]+)?)*)(?: +\S|$)/.exec(line);
  assert.ok(m, `--help has an option line whose names cannot be read: ${line}`);
  return m[1];
});

test('deb: its control file and contents: retrysim, its man page and changelog, and the libraries it needs', () => {
  const field = (name) => ok('dpkg-deb', ['-f', deb(), name]).stdout.trim();
  assert.equal(field('Package'), 'retrysim');
  assert.equal(field('Version'), version);
  assert.match(field('Depends'), /libc6/);
  assert.match(field('Depends'), /libstdc\+\+6/);
  const files = ok('dpkg-deb', ['-c', deb()]).stdout.split('\n').map((l) => l.split(/\s+/).pop()).filter(Boolean);
  for (const f of ['./usr/bin/retrysim', './usr/share/man/man1/retrysim.1.gz', './usr/share/doc/retrysim/changelog.gz', './usr/share/doc/retrysim/copyright']) {
    assert.ok(files.includes(f), `the package holds ${f}: ${files.join(' ')}`);
  }
});

test("deb: its copyright file carries libyaml's License word for word and nlohmann-json's Expat notice from Debian's package", () => {
  unpack();
  const copyright = fs.readFileSync(path.join(root, 'usr', 'share', 'doc', 'retrysim', 'copyright'), 'utf8');
  assert.match(copyright, /^Format: https:\/\/www\.debian\.org\/doc\/packaging-manuals\/copyright-format\/1\.0\/\n/);
  // A field's continuation lines as the file writes them: " text", or " ." for a blank line.
  const asField = (text) => text.trimEnd().split('\n').map((l) => (l.trim() === '' ? ' .' : ` ${l.trimEnd()}`)).join('\n');
  const stanza = (files) => copyright.split(/\n\n/).find((p) => p.startsWith(`Files: ${files}\n`));
  const yaml = stanza('third_party/libyaml/*');
  assert.ok(yaml, 'a stanza for libyaml');
  assert.ok(yaml.includes(asField(fs.readFileSync(path.join(repo, 'third_party', 'libyaml', 'License'), 'utf8'))), "libyaml's License, whole");
  assert.match(yaml, /^Copyright: 2017-2020 Ingy döt Net\n {11}2006-2016 Kirill Simonov$/m);
  const json = stanza('/usr/include/nlohmann/*');
  assert.ok(json, 'a stanza for nlohmann-json');
  const debian = fs.readFileSync('/usr/share/doc/nlohmann-json3-dev/copyright', 'utf8');
  const expat = debian.split(/\n\s*\n/).find((p) => p.startsWith('License: Expat\n'));
  assert.ok(json.trimEnd().endsWith(expat.trimEnd()), "nlohmann-json's Expat text, as Debian's package gives it");
  assert.match(json, /^Copyright: 2013-2022 Niels Lohmann$/m);
});

test('deb: unpacked into a scratch root, the installed retrysim runs: --version, --help, a run, a fleet run, bad input', async () => {
  const bin = unpack();
  const version_ = ok(bin, ['--version']);
  assert.equal(version_.stdout, `retrysim ${version}\n`);
  const help = ok(bin, ['--help']).stdout;
  assert.match(help, /^usage: retrysim/);
  for (const flag of ['--sweep', '--fleet', '--check', '--link', '--compare', '--schema', '--help', '--version']) {
    assert.ok(helpOptions(help).some((o) => o.includes(flag)), `--help lists ${flag}`);
  }
  const engine = await loadEngine();
  const opening = ok(bin, [], { input: '{}' });
  assert.deepEqual(JSON.parse(opening.stdout), JSON.parse(JSON.stringify(engine.compute({}))));
  assert.equal(JSON.parse(opening.stdout).engine, version);
  const fleet = JSON.parse(ok(bin, ['--fleet'], { input: '{"server": {"dropStale": "unfinishable"}}' }).stdout);
  assert.deepEqual(fleet, JSON.parse(JSON.stringify((await loadFleetEngine()).fleet({ server: { dropStale: 'unfinishable' } }))));
  const bad = run(bin, [], { input: '{"maxRetries": -1}' });
  assert.equal(bad.status, 2);
  assert.equal(JSON.parse(bad.stdout).errors[0].field, 'maxRetries');
  // The installed binary is the build's retrysim, stripped: the same answers.
  assert.equal(ok(retrysimPath, ['--help']).stdout, help);
});

test('deb: the man page lists every option --help lists, says the version, and renders without a warning', () => {
  const bin = unpack();
  const man = require('node:zlib').gunzipSync(fs.readFileSync(path.join(root, 'usr/share/man/man1/retrysim.1.gz'))).toString('utf8');
  assert.match(man, new RegExp(`^\\.TH RETRYSIM 1 "" "retrysim ${version.replace(/\./g, '\\.')}"`, 'm'));
  const rendered = ok('groff', ['-man', '-Tutf8', '-ww', '-P', '-cbou'], { input: man });
  assert.equal(rendered.stderr, '', 'groff warnings');
  const text = rendered.stdout.replace(/[\u2010\u2212]/g, '-').replace(/\s+/g, ' ');
  const options = helpOptions(ok(bin, ['--help']).stdout);
  assert.ok(options.length >= 10, options.join(', '));
  for (const o of options) {
    assert.ok(text.includes(o), `the man page lists ${o}`);
    assert.ok(man.includes(`.TP\n.B ${o.replace(/-/g, '\\-')}\n`), `the man page has ${o} as an option's names, alone`);
  }
  for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXIT STATUS', 'EXAMPLES']) {
    assert.match(man, new RegExp(`^\\.SH ${section}$`, 'm'));
  }
  assert.match(text, /Exit status|0 a result; 2 invalid inputs/);
});

// --- the site -------------------------------------------------------------------------------
function files(dir, base = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p, base) : [path.relative(base, p)];
  }).sort();
}

test('site: the tarball is dist/ file for file in retrylab-site-X.Y.Z/, with VERSION and .nojekyll, every URL relative', () => {
  const into = path.join(scratch, 'site');
  fs.mkdirSync(into);
  ok('tar', ['-xzf', path.join(out, `retrylab-site-${version}.tar.gz`), '-C', into]);
  assert.deepEqual(fs.readdirSync(into), [`retrylab-site-${version}`], 'one folder, named for the version');
  const site = path.join(into, `retrylab-site-${version}`);
  assert.deepEqual(files(site), [...files(dist), '.nojekyll', 'VERSION'].sort());
  for (const f of files(dist)) assert.ok(fs.readFileSync(path.join(site, f)).equals(fs.readFileSync(path.join(dist, f))), `${f} is dist/'s`);
  assert.equal(fs.readFileSync(path.join(site, 'VERSION'), 'utf8'), `${version}\n`);
  // A static host serves it from any folder: no script, stylesheet or image by absolute URL.
  for (const page of files(site).filter((f) => f.endsWith('.html'))) {
    const html = fs.readFileSync(path.join(site, page), 'utf8');
    const urls = [...html.matchAll(/<(?:script|link|img)\b[^>]*\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(urls.length > 0, page);
    for (const u of urls) assert.ok(!/^([a-z]+:|\/)/i.test(u), `${page} loads ${u}, which is not relative`);
  }
  // The same dist/ gives the same bytes (a tarball whose checksum can be published).
  const again = path.join(scratch, 'again');
  const env = { ...process.env, RETRYLAB_NATIVE_BUILD_DIR: process.env.RETRYLAB_NATIVE_BUILD_DIR || path.resolve(path.dirname(retrysimPath), '..', '..') };
  ok(path.join(repo, 'scripts', 'package'), ['--no-build', '--out', again], { cwd: repo, env });
  assert.ok(fs.readFileSync(path.join(again, `retrylab-site-${version}.tar.gz`)).equals(fs.readFileSync(path.join(out, `retrylab-site-${version}.tar.gz`))));
});

// --- one version ----------------------------------------------------------------------------
test('one version: CMakeLists.txt, the engine, the footer, the installed retrysim, the installed npm package, the .deb and the site agree', async () => {
  const footer = [...fs.readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(/<span data-engine-version>([^<]*)<\/span>/g)].map((m) => m[1]);
  const said = {
    'CMakeLists.txt': version,
    'the engine file': (await loadEngine()).version(),
    'a run\'s engine field': (await loadEngine()).compute({}).engine,
    'a sweep\'s': (await loadEngine()).sweep({ vary: 'maxRetries', from: 0, to: 3, points: 4 }).engine,
    'a fleet run\'s': (await loadFleetEngine()).fleet({}).engine,
    'an occ run\'s': (await loadFleetEngine()).fleet({ workload: 'occ', clients: 3, runs: 1 }).engine,
    'fleetSchema()\'s': (await loadFleetEngine()).fleetSchema().engine,
    'compareMetrics()\'s': (await loadEngine()).compareMetrics().engine,
    'the page\'s footer': footer.join(' '),
    'retrysim --version (from the .deb)': ok(unpack(), ['--version']).stdout.trim().replace(/^retrysim /, ''),
    'the npm package': JSON.parse(fs.readFileSync(path.join(install(), 'package.json'), 'utf8')).version,
    'the .deb': ok('dpkg-deb', ['-f', deb(), 'Version']).stdout.trim(),
    'the site\'s VERSION': fs.readFileSync(path.join(scratch, 'site', `retrylab-site-${version}`, 'VERSION'), 'utf8').trim(),
    'package.json': JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version,
  };
  for (const [where, v] of Object.entries(said)) assert.equal(v, version, `${where} says ${v}`);
  assert.match(fs.readFileSync(path.join(repo, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${version.replace(/\./g, '\\.')}$`, 'm'), 'CHANGELOG.md has this version');
});
