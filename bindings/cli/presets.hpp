// The real clients' presets (web/clients/presets.js) as retrysim knows them: generated at build
// time by presets-data.mjs from the page's own module, so both name the same presets with the
// same inputs. `{ policyFields: [name...], presets: [{ id, name, short, inputs }] }` as JSON.
#pragma once

namespace retrysim {
extern const char* const kPresetsJson;
}
