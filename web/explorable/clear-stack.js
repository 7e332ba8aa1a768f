// "Clear the stack" (views/lanes.js draws it under a stack's run, `data-act="clear-stack"`): the
// run without `layers`, the one-layer default whose policy is the controls' (docs/layers.md §2),
// so the link loses the stack too. The button is gone then: focus goes to the lanes' heading,
// which names the one layer's drawing now, and the live region says what changed. `app`:
// createExplorable's API on `root`, returned as it is.
export function withClearStack(root, id, app) {
  root.addEventListener('click', (event) => {
    const { inputs } = app.getState().result;
    if (!event.target.closest('[data-act="clear-stack"]') || !inputs.layers) return;
    const { layers, ...one } = inputs;
    app.load(one);
    if (app.getState().result.inputs.layers) return; // refused: the errors say why, the stack stays
    const heading = root.querySelector(`#${id('lanes-heading')}`);
    heading.tabIndex = -1;
    heading.focus();
    const announce = root.querySelector(`#${id('announce')}`);
    announce.textContent = `The stack is cleared: one layer, the policy the controls set. ${announce.textContent}`;
  });
  return app;
}
