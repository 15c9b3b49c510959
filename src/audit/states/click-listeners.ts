/**
 * Runs at document start in every frame of the audit's tabs (a context init script): notes each
 * element a script gives a click listener (`click`, `mousedown`, `mouseup`, `pointerdown`,
 * `pointerup`) through `addEventListener`, so that interaction states can open controls that
 * reveal content without any aria state (find-triggers.ts). The listeners themselves are passed on
 * untouched, and the page cannot read the elements noted: `window.__a11yClickListened(el)` only
 * answers whether one was. Listeners a library puts on the document for many controls at once
 * (Bootstrap's and Foundation's data attributes, React's root) are found by their attributes or
 * their element instead.
 */
export function recordClickListeners(): void {
  const listened = new WeakSet<EventTarget>();
  const CLICKS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  const addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
    try {
      if (listener && CLICKS.has(type) && this instanceof Element) listened.add(this);
    } catch {
      // a detached or foreign `this`: not noted, the call still goes through
    }
    return add.call(this ?? window, type, listener, options);
  };
  try {
    Object.defineProperty(proto, 'addEventListener', { value: addEventListener, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(window, '__a11yClickListened', { value: (el: unknown) => el instanceof Element && listened.has(el), writable: false, configurable: false, enumerable: false });
  } catch {
    // a frozen prototype: states fall back to the attributes and the controls' roles
  }
}
