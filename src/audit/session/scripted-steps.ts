import type { ElementHandle, Locator, Page } from 'playwright';
import { typesCharacter, urlMatches, type LoginStep } from '../../shared/site-auth.ts';

/**
 * One scripted step (of a site's login or of one of its flows) in a Playwright page. Values typed
 * or picked are secrets of the set-up: nothing here logs them or puts them in a message.
 */

/** Describes a step by what it acts on, never by the value it types or picks: `login step 2 (fill #password)`. */
export function describeStep(step: LoginStep, i: number, kind = 'login step'): string {
  const target =
    step.action === 'goto'
      ? step.url
      : step.action === 'press'
        ? `${typesCharacter(step.key) ? 'a character' : step.key}${step.selector ? ` in ${step.selector}` : step.label ? ` in label "${step.label}"` : ''}`
        : 'selector' in step && step.selector
          ? step.selector
          : 'label' in step && step.label
            ? `label "${step.label}"`
            : 'text' in step && step.text
              ? `text "${step.text}"`
              : 'url' in step && step.url
                ? `URL ${step.url}`
                : '';
  return `${kind} ${i + 1} (${step.action}${target ? ` ${target}` : ''})`;
}

/** What a click step names; by text, a button first, then a link, then any element with that text (a heading often repeats "Sign in"). */
async function clickTarget(page: Page, step: Extract<LoginStep, { action: 'click' }>): Promise<Locator> {
  if (step.selector) return page.locator(step.selector).first();
  if (step.label) return page.getByLabel(step.label).first();
  const text = step.text!;
  for (const candidate of [page.getByRole('button', { name: text }), page.getByRole('link', { name: text })]) {
    if ((await candidate.count()) > 0) return candidate.first();
  }
  // Not there yet: whichever appears first.
  return page.getByRole('button', { name: text }).or(page.getByRole('link', { name: text })).or(page.getByText(text, { exact: true })).first();
}

/** A field named by selector or by its label. */
function field(page: Page, step: { selector?: string; label?: string }): Locator {
  return step.selector ? page.locator(step.selector).first() : page.getByLabel(step.label!).first();
}

/** A step that would have acted on a page, or in a frame, off the site: it was not run. */
export class StepOffSiteError extends Error {
  override name = 'StepOffSiteError';
  /** Where the element (or the focus) was: an origin, never a full address with what it carries. */
  readonly at: string;
  constructor(at: string) {
    super(`the element is in a page of ${at}, not on the site`);
    this.at = at;
  }
}

function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? u.protocol : u.origin;
  } catch {
    return 'an unknown address';
  }
}

/**
 * Finds the step's element, then checks the frame it lives in at the moment of acting, and acts on
 * that very element: a page that moved on meanwhile (a delayed redirect to another site) detaches
 * the handle, so the action fails instead of typing a value into a foreign page, and an element in
 * a frame of another origin is never typed into.
 */
async function actOn(locator: Locator, timeout: number, allowed: (url: string) => boolean, act: (el: ElementHandle) => Promise<void>): Promise<void> {
  const el = await locator.elementHandle({ timeout });
  if (!el) throw new Error('the element is not there');
  try {
    const frame = await el.ownerFrame();
    const url = frame?.url() ?? '';
    if (!allowed(url)) throw new StepOffSiteError(originOf(url));
    await act(el);
  } finally {
    await el.dispose().catch(() => {});
  }
}

/** A key pressed where the focus is: only while the focus is in a document of the site (not in a frame of another origin). */
async function pressInPlace(page: Page, key: string, allowed: (url: string) => boolean): Promise<void> {
  const focused = await page.evaluateHandle(() => document.activeElement);
  try {
    const el = focused.asElement();
    let url = page.url();
    const inner = el && (await el.contentFrame());
    if (inner) url = inner.url();
    if (!allowed(url)) throw new StepOffSiteError(originOf(url));
  } finally {
    await focused.dispose().catch(() => {});
  }
  await page.keyboard.press(key);
}

/**
 * Runs one step; throws what Playwright throws (a timeout, an element that is not there), or
 * `StepOffSiteError` when the element to act on is not in a document that `allowed` accepts (the
 * site's host or origin). Callers turn that into a message of their own that names the step,
 * never Playwright's text.
 */
export async function runStep(page: Page, step: LoginStep, timeout: number, allowed: (url: string) => boolean): Promise<void> {
  switch (step.action) {
    case 'goto':
      await page.goto(step.url, { waitUntil: 'domcontentloaded', timeout });
      break;
    case 'fill':
      await actOn(field(page, step), timeout, allowed, (el) => el.fill(step.value, { timeout }));
      break;
    case 'click':
      await actOn(await clickTarget(page, step), timeout, allowed, (el) => el.click({ timeout }));
      break;
    case 'select':
      await actOn(field(page, step), timeout, allowed, async (el) => void (await el.selectOption(step.value, { timeout })));
      break;
    case 'press':
      if (step.selector || step.label) await actOn(field(page, step), timeout, allowed, (el) => el.press(step.key, { timeout }));
      else await pressInPlace(page, step.key, allowed);
      break;
    case 'waitFor':
      if (step.url) await page.waitForURL((u) => urlMatches(step.url!, u.href), { timeout, waitUntil: 'domcontentloaded' });
      if (step.selector) await page.locator(step.selector).first().waitFor({ state: 'attached', timeout });
      break;
  }
}

/** Whether a step's error is a wait that ran out (else the step failed otherwise). */
export function timedOut(err: unknown): boolean {
  return /Timeout|timed out/i.test(String((err as Error)?.message));
}
