// "Would the engine accept these inputs?", without running them: the engine's own
// validate() (SPEC §7, docs/engine.md §4), each error { field, code, message, detail }. Every
// check the page makes of values it has no run for yet (the herd's fields, a link's inputs
// and herdCallers, <retry-lab>'s attributes) comes here, so none computes a run to find out.

const failed = (message) => [{ field: '', code: 'engine-failed', message, detail: message }];

export function validateInputs(engine, inputs) {
  let answer;
  try {
    answer = engine.validate(inputs);
  } catch (error) {
    return failed(`The retry engine could not check these values (${error && error.message ? error.message : error}).`);
  }
  if (answer && answer.ok === true) return [];
  if (!answer || !Array.isArray(answer.errors) || answer.errors.length === 0) return failed('The retry engine gave no answer it could read.');
  return answer.errors;
}
