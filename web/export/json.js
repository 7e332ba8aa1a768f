// The run as JSON: exactly what compute() returned (its `inputs` echo reproduces the run).

export function runJson(result) {
  return `${JSON.stringify(result, null, 2)}\n`;
}
