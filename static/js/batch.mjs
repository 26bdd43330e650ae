// Batched DOM updates for the MicroPython board renderer (static/ui/board/render.py).
//
// Each call from MicroPython into JS costs tens of microseconds, so the board
// registers its nodes once (register(node) -> index) and then sends each
// update as ONE JSON text of operations:
//   [index, "t", text]          node.textContent = text   (text only: never markup)
//   [index, "a", name, value]   node.setAttribute(name, value); null removes it
//   [index, "p", name, value]   node[name] = value         (hidden, disabled)
const nodes = [];

export const batch = {
  register(node) {
    nodes.push(node);
    return nodes.length - 1;
  },
  reset() {
    nodes.length = 0;
  },
  apply(opsJson) {
    const ops = JSON.parse(opsJson);
    for (const op of ops) {
      const node = nodes[op[0]];
      if (!node) continue;
      if (op[1] === "t") node.textContent = op[2];
      else if (op[1] === "a") {
        if (op[3] === null) node.removeAttribute(op[2]);
        else node.setAttribute(op[2], op[3]);
      } else if (op[1] === "p") node[op[2]] = op[3];
    }
    return ops.length;
  },
};

(globalThis.generala ||= {}).batch = batch;
export default batch;
