import type { Page, Request } from 'playwright';
import { probe, type Probe } from './probe.ts';

/**
 * What a key press, a click or a change of value did to the page: the recorder behind the checks
 * that ask "did anything happen?" (a control activated by Space, a select that navigates when its
 * value changes). In the page, `window.__a11yKbdFx` counts DOM changes and notes a `click` event
 * on the element under test, a form sent, a window opened (both refused: the page stays), the
 * address's fragment changed and focus moved; from Node, navigation requests of the main frame
 * (refused by the page session once the page loaded) and JavaScript dialogs are counted. Every
 * patch is put back by `removeEffects`.
 */

export interface Effects {
  /** DOM changes (attributes, children, text) while recording. */
  mutations: number;
  /** A `click` event reached the element under test (a key handler that calls `click()`). */
  clicked: boolean;
  /** `form.submit()`, `requestSubmit()` or a submit event. */
  submitted: boolean;
  /** `window.open()` calls. */
  opened: number;
  /** The address (with its fragment) changed. */
  addressChanged: boolean;
  /** Focus is on another element than when recording started. */
  focusMoved: boolean;
  /** Main-frame navigations the page attempted (from Node). */
  navigations: number;
  /** alert/confirm/prompt shown (from Node). */
  dialogs: number;
}

/** Anything at all happened. */
export function somethingHappened(e: Effects): boolean {
  return e.mutations > 0 || e.clicked || e.submitted || e.opened > 0 || e.addressChanged || e.focusMoved || e.navigations > 0 || e.dialogs > 0;
}

/** The page tried to go somewhere else: a navigation, a form sent, a new window. */
export function contextChanged(e: Effects): boolean {
  return e.submitted || e.opened > 0 || e.navigations > 0;
}

type FxApi = { start(target: number | null): void; read(): Omit<Effects, 'navigations' | 'dialogs'>; remove(): void };

/** In the page: installs the recorder once (self-contained). */
export function installEffects(k: Probe): void {
  const w = window as unknown as { __a11yKbdFx?: FxApi };
  if (w.__a11yKbdFx) return;
  const st = { mutations: 0, clicked: false, submitted: false, opened: 0, href: location.href, focus: k.here() as unknown, target: null as Element | null, on: false };
  const mo = new MutationObserver((records) => {
    if (st.on) st.mutations += records.length;
  });
  mo.observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
  const onClick = (e: Event) => {
    if (!st.on || !st.target) return;
    const t = e.target as Node | null;
    if (t && (t === st.target || st.target.contains(t))) st.clicked = true;
  };
  const onSubmit = (e: Event) => {
    if (!st.on) return;
    st.submitted = true;
    e.preventDefault();
  };
  window.addEventListener('click', onClick, true);
  window.addEventListener('submit', onSubmit, true);
  const origOpen = window.open;
  const formProto = HTMLFormElement.prototype;
  const origSubmit = formProto.submit;
  const origRequest = formProto.requestSubmit;
  // While recording, a script's window.open and form.submit() are noted and refused.
  window.open = function (this: Window, ...args: Parameters<typeof window.open>) {
    if (st.on) {
      st.opened++;
      return null;
    }
    return origOpen.apply(this, args);
  } as typeof window.open;
  formProto.submit = function (this: HTMLFormElement) {
    if (st.on) {
      st.submitted = true;
      return;
    }
    return origSubmit.call(this);
  };
  if (origRequest) {
    formProto.requestSubmit = function (this: HTMLFormElement, submitter?: HTMLElement | null) {
      if (st.on) {
        st.submitted = true;
        return;
      }
      return origRequest.call(this, submitter);
    };
  }
  w.__a11yKbdFx = {
    start(target) {
      st.mutations = 0;
      st.clicked = st.submitted = false;
      st.opened = 0;
      st.href = location.href;
      st.focus = k.here();
      st.target = target === null ? null : (k.el(target) ?? null);
      st.on = true;
    },
    read() {
      st.on = false;
      return { mutations: st.mutations, clicked: st.clicked, submitted: st.submitted, opened: st.opened, addressChanged: location.href !== st.href, focusMoved: k.here() !== st.focus };
    },
    remove() {
      st.on = false;
      mo.disconnect();
      window.removeEventListener('click', onClick, true);
      window.removeEventListener('submit', onSubmit, true);
      window.open = origOpen;
      formProto.submit = origSubmit;
      if (origRequest) formProto.requestSubmit = origRequest;
      delete w.__a11yKbdFx;
    },
  };
}

/** Records what the page does from Node's side: navigations of the main frame and dialogs. */
export class EffectsRecorder {
  private navigations = 0;
  private dialogs = 0;
  private readonly onRequest = (r: Request) => {
    try {
      if (r.isNavigationRequest() && r.frame() === this.page.mainFrame()) this.navigations++;
    } catch {
      // a request of a frame that went away
    }
  };
  private readonly onDialog = () => void this.dialogs++;

  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async install(): Promise<void> {
    await probe(this.page, installEffects);
    this.page.on('request', this.onRequest);
    this.page.on('dialog', this.onDialog);
  }

  /** Starts recording; `target` is the element whose `click` event counts. */
  async start(target: number | null): Promise<void> {
    this.navigations = 0;
    this.dialogs = 0;
    await probe(this.page, (_k, t: number | null) => (window as unknown as { __a11yKbdFx: FxApi }).__a11yKbdFx.start(t), target);
  }

  /** Waits for the page's scripts to settle, stops and returns what happened. */
  async read(settleMs = 150): Promise<Effects> {
    await probe(this.page, (_k, ms: number) => new Promise((r) => setTimeout(r, ms)), settleMs);
    const inPage = await probe(this.page, () => (window as unknown as { __a11yKbdFx: FxApi }).__a11yKbdFx.read());
    return { ...inPage, navigations: this.navigations, dialogs: this.dialogs };
  }

  async remove(): Promise<void> {
    this.page.off('request', this.onRequest);
    this.page.off('dialog', this.onDialog);
    await probe(this.page, () => (window as unknown as { __a11yKbdFx?: FxApi }).__a11yKbdFx?.remove()).catch(() => {});
  }
}
