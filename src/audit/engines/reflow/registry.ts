/**
 * Runs in the page, passed as a value to the reflow scans (`inPage` sends its source, so it must
 * stay self-contained): the element ids kept in `window.__a11yReflow` between layouts, and the
 * function that gives an element its id (the same id in every scan of the page).
 */
export function reflowRegistry(): { reg: ReflowRegistry; idOf: (el: Element) => number } {
  const w = window as unknown as { __a11yReflow?: ReflowRegistry };
  const reg: ReflowRegistry = (w.__a11yReflow ??= { ids: new WeakMap(), refs: [] });
  const idOf = (el: Element) => {
    let id = reg.ids.get(el);
    if (id === undefined) {
      id = reg.refs.length;
      reg.refs.push(new WeakRef(el));
      reg.ids.set(el, id);
    }
    return id;
  };
  return { reg, idOf };
}

/** `window.__a11yReflow`: elements by id, and the boxes that hid their overflow at the last full clipping scan. */
export type ReflowRegistry = { ids: WeakMap<Element, number>; refs: Array<WeakRef<Element>>; clippers?: Array<WeakRef<Element>> };
