// Held once, read by page-size.test.js (the test that fails over it) and bench/report.mjs (the
// verdict scripts/bench prints beside the measured figure).

// Everything a reader who scrolls to the end loads (issue 18): the opening page and every later
// bundle marked `scrolled` above (what nearing a section brings; the downloads come only with a
// click). 103.7 KB at issue 18 (the page 68.1 KB, the sections 35.6 KB), and room for the
// explorable's redesign (issue 15, about 2 KB). A section added below the article adds its
// bundle to LATER with `scrolled: true` and raises this by its weight, said in BENCHMARKS.md:
// the fleet section (issue 20) brings its bundle (36 KB ceiling) and the fleet engine file
// (66 KB ceiling), so 106 + 102 KB. 210.6 KB at issue 18, which moved the engine file from the
// opening page to the sections' need (the same bytes) and added the opening page's data block
// (+3.2 KB) and the bundle's loader (+1.0 KB): 212 KB. 220.1 KB once issues 15, 16, 18 and 20
// were merged at 16:50 on 2026-12-01: issue 15's figure beside the article (2.0 KB) and its
// mechanism drawn (3.4 KB) on the opening page, the client cards' gate units (0.2 KB), the fleet
// element view and downloads (1.9 KB): 221 KB. 227 KB with issue 18's engine budgets: both engine
// files' value.cpp at -O2 and the sweep's tape writer (+2.9 KB and +3.2 KB); 229.5 KB once
// both engine files also carry the table of compare metrics (issue 17, about 0.8 KB gzipped in
// each) and compare mode its fleet sides' controls. With issue 18's session 4: both engine files'
// validator at -O2 and the draws as one block (eng18c, +4.7 KB and +4.8 KB), the input budget's
// redraw (input18c: the lanes' end height without drawing the end, patchKnown in web/dom.js; +0.5 KB
// in retrylab.js), and index.html carrying the explorable drawn for the opening run (render15c, web/prerender.mjs:
// index.html 7.3 → 10.8 KB gzipped) and issue 15's last defects (polish15c, +0.7 KB: the lanes at t = 0,
// the timeline's labels shaded whole, the storm chart's scroll line), measured together after the merge: 244.3 KB.
// 246.3 KB with issue 18's session 5 (wasm18d): the result's keys by number in both engine files
// (+0.3 and +0.4 KB) and the page's engine.cpp at -O2 (+1.3 KB), for compute({}) about 27% less CPU in
// node: 252,151 bytes measured.
// With task18d's fleet change (late answers counted without events) and input18d's client lab card
// drawn near the screen (+0.3 KB) merged beside it (the sweep's worker not merged): 246.8 KB measured.
// 247.3 KB with fleet18e's event loop in the fleet engine file (+419 bytes, 76,527 measured).
// 247.0 KB with sweep18e's sweep in two short tasks (the sections +171 bytes): 252,869 bytes measured.
// 247.4 KB with input18e's views drawn after the change's frame while off screen (explorable/near.js
// drawnOnScreen, run-view.js; retrylab.js 29,401 → 30,026 bytes gzipped, +0.6 KB), issue 18's input budget.
// All three merged (session 6): 254,042 bytes measured (248.1 KB).
// 248.3 KB with FLEET.md v3's verdict in the fleet engine file (five-bin windows and
// recovery.disrupted: +154 bytes, 76,681 measured); 248.5 KB with the fleet section's words for
// v3's windows (its note and verdicts, about +0.1 KB) and the engine's singular stop sentence:
// 248.3 KB measured, just over 248.3 × 1024 bytes.
// 252.8 KB with the one Markdown writer in the page's engine file (issue 30: +4,274 bytes, and
// the fleet engine file's +184 for the entry's refusal; the fleet file does not carry the
// writer, bindings/wasm/engine.cpp).
// With issue 32's stability maps, a bundle of their own that the fleet section loads as
// its map nears the screen (retrylab-fleet-map.js and .css, 16.1 KB: two maps, seeds, the
// closed-form lines, their files and the literature's presets), less the 1.1 KB the section's
// bundle lost with the map: 263.3 KB measured with FLEET.md v3's engine merged.
// Issue 30's part 3 (page30): a linked fleet run's computing state, the file:// bound, the occ
// refusal and the too-large message in the fleet section (about +2.2 KB), and the binding's
// out-of-memory code in both engine files (about +0.1 KB).
// All merged (session 7), with issue 30's cost bound in the fleet engine file (+2.7 KB) and the
// core's escaping of messages in both engine files: 273.0 KB measured on a fresh clone.
// Issue 38's gate rules: the fleet engine file +1,144 bytes, the fleet section +0.9 KB, the
// engine file +60 bytes (page-size.test.js says what): 275.3 KB measured; 275.5 KB with the
// post’s bucket drawn in the Brooker reproduction (+237 bytes).
// Issue 38's client presets (five more, the labels by version range and date) are in two
// scrolled bundles, the sections' and the fleet section's (its presets read the client lab's):
// +3.25 KB each gzipped (34,005 → 37,256 and 39,554 → 42,804 bytes at gzip -9), 279.4 KB measured.
// Both merged (issue 38's presets and gate rules): 281.9 KB measured.
// Issue 38's grpc-js preset, in the same two bundles (+778 and +800 bytes gzipped):
// 290,195 bytes measured (283.4 KB), 288,617 without it.
// Issue 38's three Istio presets, in the same two bundles (+1,291 and +1,311 bytes gzipped):
// 292,797 bytes measured (285.9 KB); 286.5 KB with the article's mesh section that quotes them
// (index.html 11.0 → 11.5 KB gzipped, 11,787 bytes).
// Issue 33's retries across layers in both engine files (+12,555 and +11,017 bytes) and the
// layers row in index.html's input table (+615 bytes): +24,187 measured on the helper's
// machine at e783049 and at its change; merged into main (with the Istio presets), 312.8 KB measured,
// index.html 12,400 bytes gzipped with the layers row in its input table.
// Issue 34's throttling server and send gates in the fleet engine file (+3,928 bytes gzipped,
// 80,697 → 84,625), and §6's hedging there too (+2,282 bytes): merged with the layers, 319.1 KB measured.
// botocore's adaptive mode as a preset, in the sections' and the fleet section's bundles (+278 and
// +281 bytes): 319.6 KB measured.
// Issue 35's item 1 in the fleet section (fleetux35: the sticky figure, the storm drawn again
// near a control or the map, the ghost of the run before): +1,483 bytes, and +4 in the stability
// maps' bundle (a cell's element passed on); 287.9 KB measured; 288.0 KB measured with the
// near figure shown again once the page has settled (+81 bytes).
// Its item 5, the gate fields' messages in the fleet section: +857 bytes, 288.9 KB measured.
// Its item 4, what each gate refused and why a change changed nothing: +564 bytes, 289.4 KB measured.
// Merged with the presets, layers and gates above: 322.5 KB measured.
// Issue 34's §7, Envoy's admission control, in the fleet engine file (+2,111 bytes gzipped, 99,432 →
// 101,543): merged with everything above, 324.6 KB measured.
// Issue 35's items 6-8 (compare35): the Open Graph tags in index.html (+392 bytes), Play's
// rhythm and the figure's baselines and lanes in retrylab.js (+464) and retrylab.css (+15), and
// Compare with… in the fleet section (+83): +954 bytes measured.
// Issue 33's section "Retries across layers" in the sections' bundle (+4,437 bytes) and the page's
// bundle carrying a stack in links and taking it out of the experiment (+713): 329.6 KB measured;
// +53 with the section's "Retry at one layer only", +83 with its status region that stays: 329.7 KB.
// Both merged: the two measured growths added (329.8 KB + 954 bytes); re-measured after the session's merges.
// Issue 34's single-run hedging, its presets and the article's step: +12,998 bytes (the page
// +859, the engine file +4,749, the sections +1,249, the fleet section +1,055, the fleet engine file
// +5,086; page-size.test.js says what), 336.8 KB measured.
// Merged with hedging34: its measured growth added; re-measured after the session's merges.
// Issue 33's stack of layers in the fleet engine file (+12,029 bytes gzipped, 101,022 → 113,051)
// and the fleet section leaving the gates' layer rows to the stack's editor (+15): +12,044.
// Merged with layersfleet33: its measured growth added.
// Issue 35's item 2 in the fleet section (the storm chart's work, shared axes, labels at their
// peaks): +1,221 bytes, and −5 in the stability maps' bundle: 325.3 KB measured.
// Issue 34's gates from the table's row and the throttling on the storm: +840 bytes in the fleet
// section, +30 in the stability maps' bundle: 326.1 KB measured. The short words of the two new
// gates' fields: +146 bytes, 326.3 KB measured. Issue 34's hedging figure in the fleet section:
// +2,192 bytes, 328.4 KB measured.
// Merged with fleetcharts: its measured growth added (3891 bytes).
// Links carry hedging (codec.js's record, compare-link.js's echoed defaults): +145 bytes measured
// (351,636 → 351,781 scrolled to the end, the same build with main's two files and with these).
// Merged with hedginglink: +145 bytes.
// Main at 3f0d833 (the fleetcharts merge; the compare headline reading GATE_LABELS so that it
// builds) measured 367,869 bytes, 267 over the summed ceiling: raised by that.
// Issue 34's throttling server and hedging as switches in the fleet section: +1,953 bytes,
// 369,822 measured.
// +1,127 bytes with issue 35's item 9 (fleetphone): the fleet section's phone chart and key
// (section.js, chart.js +829), its phone fields and targets (fleet.css +190), the map's (map.css +108).
// Session 10's merges together (compare35, layerspage33, hedging34, layersfleet33, fleetcharts,
// hedginglink, fleetcontrols, fleetphone), measured on main's merged build: 371,128 bytes.
// +1,319 bytes (layersdoors33): the experiment, compare mode and <retry-lab> draw a linked stack
// (views/stack.js and css/stack.css move into the first bundle, the sections' bundle keeping its
// own copy; compare/stack-words.js), measured against main's build: 372,447.
// +2,934 bytes (layersdoors33): the layers section's door to the fleet and the fleet running a
// stack (the sections +478, the fleet section +2,458, the stability maps -2): 375,381 measured;
// +46 with the fleet's stack table readable on a phone: 375,427; +17 with the lanes' heading
// changed only while a stack is drawn (retrylab.js): 375,444.
// +1,613 bytes with issue 31's item 4 (fleetsplit31): the fleet section's mountFleet split into
// small pieces over one state; +157 with the one worker job runner (web/worker-jobs.js: the fleet
// section +89, the sections +68); +277 with mountStability split (the stability maps); +461 with
// createSweep split (the sections +456) and the latch resolving with a value (+3, +2).
// +4,076 bytes with issue 36 (configpage36): the engine file +54 and the fleet engine file +189
// (the config entry points answered with an error), the sections +3,844 ("Paste your config").
// +2,300 bytes with issue 34's send rate on the storm and the JavaScript SDK v3's adaptive preset
// (adaptive34): the sections +461, the fleet section +1,302 and its CSS +30, the fleet engine file
// +507 (the bins' limiting and sendRate), each measured at level 6 against main's build.
// hedge34 (issue 34: §8's per-try hedge in the fleet, the sweep's refusal, the hedging switch's form
// read from the table): +3,318 bytes, the engine file +379, the fleet engine file +2,789 and the
// fleet section +150, each measured against main's dist at this branch's base.
// Session 11's merges together and the gate menus in words, measured on main's merged build: 391,109 bytes.
// +78 with mountTraces split into traceRuns, mountMatrix and the section (issue 31: no function over 150 lines), the sections file measured at level 6 against 82d29e7 built alike.
// +2 with the type check's named parameters of engineOnDemand's check and onFailure defaults (retrylab.js, measured).
// +257 with one map of the single run's input labels (web/input-words.js) that the opening script now carries whole (+334) and the sections no longer copy (-77).
// +52 with failureNote (web/dom.js), the one failure paragraph the opening script, the sections and the element each carry (measured).
// stack33ui (issue 33: the experiment's "Clear the stack", the fleet element's stack box, a
// stack's load in the fleet's summary): +284 bytes, the opening page +182 (retrylab.js +168,
// retrylab.css +14) and the fleet section +102, measured against this branch's base (391,108);
// +1 with the handler in its own module (explorable/clear-stack.js; retrylab.js +169 in all).
// +2 measured on main with stack33ui merged (the fleet section +1: its chart's typed ticks, and the opening script +1).
// +1,049 bytes with issue 33's budgets (budget33: the engine file +47, the fleet engine file +1,003 against
// main's build), 392,158 measured on this branch's dist.
// +18,951 bytes with issue 39's single run on many servers: the engine file +8,791, the fleet engine
// file +9,029 and index.html's data block (the input table's six new rows) +1,131, each measured
// gzipped against main's dist at this branch's base: 410,060.
// +5,401 bytes with issue 39's step on many servers (servers39step), measured against this branch's
// base (684c8b0) built alike: the opening page +2,194 (index.html +669: the step's prose; retrylab.js
// +1,468: the views naming the host, the step's door and steps.js provide; retrylab.css +57), the
// step's own bundle 3,166 and the sections +41 (index.html's data block is the engine's, above).
// +7,740 bytes with issue 39's Many servers box in the fleet section (+7,682) and the map's bundle
// (+58), servers39fleetpage; the engine files' growth from the engine's side is not counted here.
// Session 12's merges together, measured on main's merged build (level 6): 440,989 bytes. Of the
// engine files' growth the branches' own sums did not hold: the fleet engine file is 148,127 (the
// many-servers fleet loop and its rows, servers39fleet, raised no ceiling of its own: +16,000 over
// the summed 132,128), the step's bundle +1, the fleet section +29; the config file 175,385 (+7,284:
// the same core's many-servers rows and checks).
// +2 with the version 3.1.0 in the engine files (the engine file +3, the fleet engine file −1), measured on a fresh clone.
// +125 with the fleet section's looked() (suiteF, issue 31 item 6: the fleet browser tests wait
// for it instead of sleeping), measured against this branch's base built alike.
// +4 with the storm's summary in the singular for one request (runSummary, issue 33's "1 requests").
// +33 with perfS's three-layer speed in the engine file (85,434 against 85,401 at c6f135e, built alike).
// +284 bytes with a run holding servers having no link (link31, issue 39's gap: codec.js's uncarried
// and LinkError, the share bar's line saying so, link.js keeping the last link): retrylab.js +239,
// the servers step's bundle +46, the stability maps' −1, measured gzipped against main's dist (c6f135e)
// built alike.
// +182 with createExplorable and createRunView split into named pieces (web31, issue 31): retrylab.js
// 35,492 → 35,674 gzipped, the split's measured cost; nothing else a scrolling reader loads changed.
// −1,259 with perfF's size pass on the fleet engine file (146,867 against 148,126 from main's sources).
// +2,843 with issue 31's compareResults() in the fleet engine file (compare31, docs/compare.md §7:
// the fleet file 148,126 → 150,892, +2,766) and the engine file's +77.
// +618 with issue 31's result facts (infer31): the engine file +62, the fleet engine file +556,
// each measured at level 6 against main's build at 0f7cf32.
// +13: session 13's merged build (3.2.0) re-measured at 443,834.
// +101: the storm drawn near a change keeps the control acted on in view (web/fleet/near.js's
// scrollFor): the fleet section 73,855 → 73,956, within its own ceiling.
// +4,156 with the link format's facts as data both readers use (link-format.json, linktable, issue
// 31 item 5), bundled with share/codec.js in each of the five bundles a scrolling reader loads
// that read links (the opening page +823, the sections +824, the servers step +835, the fleet
// section +831, its maps +843): 447,990 measured against 443,834 at this branch's base (32fd822).
// +476 with defaults31 (issue 31), each file measured at level 6 against this branch's base
// (32fd822) built alike: the engine file +186 and the fleet engine file +172 (waitShape), the
// fleet section +135 (heldValue, the timeline CSV's server columns), the sections −32 (plainDraw
// gone), index.html +15 (the prerendered run's rows).
// −380: session 14's merged build (linktable, core31b, defaults31 and the near figure) re-measured
// at 448,187.
// +134: the reproductions start as the reader nears them (the fleet section 74,952 → 75,089).
export const SCROLLED_CEILING_BYTES = 440989 + 2 + 125 + 4 + 33 + 284 + 182 - 1259 + 2843 + 618 + 13 + 101 + 4156 + 476 - 380 + 134 + 68 + 6; // +6: session 16 re-measured (448,395: the version 4.0.1 in the engine files). +68: session 15 re-measured (448,389: the link table's notNumberList word in each bundle that reads links, the version 4.0.0)
// +2,197 bytes with issue 35's minor items (minor35), measured against its base (c7d46a1) built
// alike: the opening page +433 (index.html +15, retrylab.css +59, retrylab.js +359: the phone's
// one-line statement, the timeline's labels by their bars, the sections a task each), the
// sections +381, the fleet section +799, the stability maps +584: 373,325.
// +9 with the reproductions' panels in even columns (fleet.css): 373,334.
// +21 with compare mode's charts not dimmed for good (fleet.css's computing rule): 373,355.
