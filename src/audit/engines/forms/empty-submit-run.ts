import type { Dialog, Page } from 'playwright';
import { findEmptySubmitForms, readEmptySubmit, sendFormEmpty, type EmptySubmitOptions } from './empty-submit-collect.ts';
import { emptySubmitFindings, type EmptySubmitDraft } from './empty-submit.ts';
import { collectFormFacts } from './collect.ts';
import { ERROR_TEXT_SOURCE } from './errors.ts';
import { formFindings, type Draft } from './findings.ts';
import { FORM_RULES } from '../../../shared/rules/forms.ts';
import { withRequestsHeld } from '../../session/held-requests.ts';
import type { CollectOptions } from './collect.ts';

export const EMPTY_SUBMIT_LIMITS: EmptySubmitOptions = { maxForms: 2, maxFields: 60, maxTextNodes: 4000, textMax: 160 };
/** How long the page may take to show its errors after the submit button is pressed. */
const SETTLE_MS = 600;

/**
 * Sends each form with required-looking fields empty (WCAG 3.3.1, 3.3.3, F81) on the default
 * state of the page, and puts the page back. Nothing leaves the page while a form is sent: every
 * request but what renders the page is refused (`withRequestsHeld`), a capturing `submit` listener
 * cancels the submission's navigation, dialogs are dismissed, and a new window is closed. Once a
 * form was sent, the page is put back (left for about:blank while requests are still held, so a
 * timer the submit set cannot send anything later, then loaded again by its address: a GET), so
 * the engines after this one see it as it loaded.
 *
 * Besides its own checks, it reads the forms engine's facts again after the submission: error
 * messages that only appear then are judged like the ones a page loads with (form-error-message,
 * form-invalid-no-message), once per element.
 */
export async function checkEmptySubmission(page: Page, collect: CollectOptions, seen: ReadonlySet<string>, signal?: AbortSignal): Promise<Array<EmptySubmitDraft | Draft>> {
  const count = await page.evaluate(findEmptySubmitForms, EMPTY_SUBMIT_LIMITS);
  if (count === 0) return [];
  const out: Array<EmptySubmitDraft | Draft> = [];
  const dialogs: string[] = [];
  const onDialog = (d: Dialog) => {
    dialogs.push(d.message().slice(0, 300));
    void d.dismiss().catch(() => {});
  };
  const onPopup = (p: Page) => void p.close().catch(() => {});
  const address = page.url();
  let sentAny = false;
  page.on('dialog', onDialog);
  page.on('popup', onPopup);
  try {
    await withRequestsHeld(page, () => sendEach(), () => (sentAny ? address : null));
  } finally {
    page.off('dialog', onDialog);
    page.off('popup', onPopup);
  }
  return out;

  async function sendEach(): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (signal?.aborted) break;
      dialogs.length = 0;
      const sent = await page.evaluate(sendFormEmpty, { i, o: EMPTY_SUBMIT_LIMITS });
      if (!sent.ok) continue;
      sentAny = true;
      await page.waitForTimeout(SETTLE_MS);
      const form = await page.evaluate(readEmptySubmit, { i, o: EMPTY_SUBMIT_LIMITS });
      if (!form) continue;
      out.push(...emptySubmitFindings(form, dialogs));
      // The messages that appeared, judged as the forms engine judges messages on load.
      const after = formFindings(await page.evaluate(collectFormFacts, { ...collect, errorText: ERROR_TEXT_SOURCE })).drafts;
      for (const d of after) {
        if (d.rule !== FORM_RULES.errorMessage && d.rule !== FORM_RULES.invalidNoMessage) continue;
        if (seen.has(d.ref.selector) || out.some((o) => o.ref.selector === d.ref.selector && o.criterion === d.criterion)) continue;
        out.push({ ...d, data: { ...d.data, state: 'empty-submit' } });
      }
    }
  }
}
