// The real clients' presets (web/clients/presets.js) as retrysim knows them: generated at build
// time by presets-data.mjs from the page's own module, so both name the same presets with the
// same inputs. `{ policyFields: [name...], presets: [{ id, name, short, inputs }] }` as JSON.
#pragma once

namespace retrysim {
extern const char* const kPresetsJson;
// The fleet section's labels (web/compare/headline.js fleetLabels(), written by
// fleet-words-data.mjs): `{ labels: [[path, label]...] }`, for a fleet comparison's headline.
extern const char* const kFleetWordsJson;
}  // namespace retrysim
