// @ts-check
// A list element kept in step with an array, for the lobby's race lists and the racers beside
// a race's board: each item's node is made once and found again by its key, brought up to date
// and put in the array's order; the nodes of items gone are removed. A node is never replaced,
// so a click or the focus never lands on one that vanished.

export class KeyedList {
  /** key(item): its key; create(item): a new node; fill(node, item, context): update it. */
  constructor(list, { key, create, fill }) {
    this.list = list;
    this.key = key;
    this.create = create;
    this.fill = fill;
    this.nodes = new Map();
  }

  /** Show `items` in their order; `context` is passed on to fill(). */
  render(items, context) {
    const seen = new Set();
    items.forEach((item, index) => {
      const key = this.key(item);
      let node = this.nodes.get(key);
      if (!node) {
        node = this.create(item);
        this.nodes.set(key, node);
      }
      this.fill(node, item, context);
      const there = this.list.children[index] ?? null;
      if (there !== node) this.list.insertBefore(node, there);
      seen.add(key);
    });
    for (const [key, node] of this.nodes) {
      if (seen.has(key)) continue;
      node.remove();
      this.nodes.delete(key);
    }
  }
}
