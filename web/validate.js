// "Would the engine accept these inputs?", without running them: the engine's own
// validate() (SPEC §7), each error { code, field, message, detail }. Every check the page
// makes of a value before it has a run to show (the herd's fields, a link's herdCallers) comes
// here, so none of them computes a run to find out.

const failed = (message) => [{ code: 'engine-failed', field: 'general', message, detail: message }];

export function validateInputs(engine, inputs) {
  let answer;
  try {
    answer = typeof engine.validate === 'function'
      ? engine.validate(inputs)
      : engine.compute({ scenario: 'bad-request-400', ...inputs }); // an engine before validate(): a 400 is never retried
  } catch (error) {
    return failed(`The retry engine could not check these values (${error && error.message ? error.message : error}).`);
  }
  if (answer && answer.ok === true) return [];
  if (!answer || !Array.isArray(answer.errors)) return failed('The retry engine gave no answer.');
  return answer.errors.map((e) => ('detail' in e ? e : { ...e, detail: e.message.startsWith(`${e.field} `) ? e.message.slice(e.field.length + 1) : e.message }));
}
