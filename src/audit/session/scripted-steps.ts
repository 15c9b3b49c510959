import type { Locator, Page } from 'playwright';
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

/**
 * Runs one step; throws what Playwright throws (a timeout, an element that is not there). Callers
 * turn that into a message of their own that names the step, never Playwright's text.
 */
export async function runStep(page: Page, step: LoginStep, timeout: number): Promise<void> {
  switch (step.action) {
    case 'goto':
      await page.goto(step.url, { waitUntil: 'domcontentloaded', timeout });
      break;
    case 'fill':
      await field(page, step).fill(step.value, { timeout });
      break;
    case 'click':
      await (await clickTarget(page, step)).click({ timeout });
      break;
    case 'select':
      await field(page, step).selectOption(step.value, { timeout });
      break;
    case 'press':
      if (step.selector || step.label) await field(page, step).press(step.key, { timeout });
      else await page.keyboard.press(step.key);
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
