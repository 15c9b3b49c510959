import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { genericFrameTitle, genericTitle, normaliseTitle, unrelatedTitle } from './title.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';
import type { AuditWindow } from '../page-helpers.ts';

/** ACT rules each rule of this engine implements (for the accuracy harness). */
export const ACT_RULES: Record<string, string[]> = {
  'title-generic': ['c4a8a4'],
  'title-unrelated': ['c4a8a4'],
};

const HELP_URL = understandingUrl('page-titled');

const KIND_TEXT: Record<string, string> = {
  placeholder: 'is an authoring tool\'s or framework\'s default title, not a description of the page',
  'lorem-ipsum': 'is placeholder text',
  'home-word': 'names no page on its own, and this is not the site\'s home page',
  vague: 'is a generic word that does not say what the page is about',
  'file-name': 'is a file name, which does not describe the page',
  url: 'is an address, which does not describe the page',
  'no-letters': 'has no words at all',
};

const FRAME_KIND_TEXT: Record<string, string> = {
  'frame-word': 'only says that it is a frame, or is a placeholder',
  'file-name': 'is a file name',
  url: 'is an address',
  'no-letters': 'has no words at all',
};

/** Frames whose names are read, at most (in document order). */
const MAX_FRAMES = 30;

/** A frame whose name does not describe it (H64): for a person to decide, under 4.1.2. */
export function frameTitleFinding(name: string, kind: string, at: { selector: string; html: string }): FindingDraft {
  return ownFinding({
    ruleId: 'frame-title-generic',
    type: 'needs_review',
    severity: 'moderate',
    criterion: '4.1.2',
    ...at,
    help: 'Give each frame a title that describes its content',
    description: 'A frame\'s title is its name: screen reader users choose frames by it, so it must say what the frame holds (H64).',
    failureSummary: `This frame's name "${name.slice(0, 120)}" ${FRAME_KIND_TEXT[kind] ?? 'does not describe it'}: it does not say what the frame holds. Give it a title that describes its content.`,
    helpUrl: understandingUrl('name-role-value'),
    data: { frameTitle: name.slice(0, 160), kind, review: { reason: 'A frame title that names no content: check what the frame holds and whether its name says so.' } },
  });
}

interface TitleFacts {
  title: string;
  at: { selector: string; html: string } | null;
  text: string;
}

/** Findings from the page's title and text: the pure part of the engine. */
export function titleFindings(facts: TitleFacts, url: string): FindingDraft[] {
  const title = normaliseTitle(facts.title);
  if (!title || !facts.at) return [];
  const at = facts.at;
  const generic = genericTitle(title, url);
  if (generic) {
    return [
      ownFinding({
        ruleId: 'title-generic',
        type: generic.outcome,
        severity: 'serious',
        criterion: '2.4.2',
        ...at,
        help: 'Give the page a title that describes it',
        description: 'The page title must describe the page\'s topic or purpose; defaults, placeholders, file names and addresses do not.',
        failureSummary: `The page title "${title.slice(0, 120)}" ${KIND_TEXT[generic.kind]}. ${generic.outcome === 'confirmed' ? 'Replace it with a title that says what this page is about.' : 'Check whether it tells this page apart; if not, give it a descriptive title.'}`,
        helpUrl: HELP_URL,
        data: { title: title.slice(0, 160), kind: generic.kind },
      }),
    ];
  }
  const unrelated = unrelatedTitle(title, facts.text);
  if (unrelated) {
    return [
      ownFinding({
        ruleId: 'title-unrelated',
        type: 'needs_review',
        severity: 'moderate',
        criterion: '2.4.2',
        ...at,
        help: 'Check that the page title matches the page',
        description: 'The page title must describe the page it is on; a title sharing no word with the page may belong to another one.',
        failureSummary: `None of the words of the title "${title.slice(0, 120)}" (${unrelated.titleWords.join(', ')}) appears on the page. Check that the title describes this page.`,
        helpUrl: HELP_URL,
        data: { title: title.slice(0, 160), titleWords: unrelated.titleWords },
      }),
    ];
  }
  return [];
}

/** Characters of page text read to relate the title to the page. */
const TEXT_CAP = 20_000;

/**
 * 2.4.2 beyond axe's `document-title` (missing or empty title): a title that is a default or
 * placeholder (`confirmed`), a vague word, file name or address, or shares no word with the page
 * (`needs_review`). One small evaluate: the title, its element, and up to 20,000 characters of text.
 */
export const titleEngine: ScanEngine = {
  id: 'title',
  stage: 'CustomChecks',
  async run({ page, finalUrl }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const facts = await page.evaluate(({ cap, max }: { cap: number; max: number }): Omit<TitleFacts, 'at'> & { present: boolean; frames: Array<{ index: number; name: string }> } => {
      const title = document.title;
      const body = document.body;
      let text = body ? body.innerText.slice(0, cap) : '';
      // Image alternatives and accessible names are page text too.
      const alts: string[] = [];
      for (const img of Array.from(document.querySelectorAll('img[alt], [aria-label]')).slice(0, 200)) {
        alts.push(img.getAttribute('alt') ?? img.getAttribute('aria-label') ?? '');
      }
      text += ' ' + alts.join(' ');
      // The frames people meet (shown, not hidden from assistive technology), with their names.
      const frames: Array<{ index: number; name: string }> = [];
      Array.from(document.querySelectorAll('iframe, frame')).slice(0, max).forEach((f, index) => {
        const name = (f.getAttribute('aria-label') ?? f.getAttribute('title') ?? '').trim();
        const shown = (f as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility?.({ visibilityProperty: true }) ?? true;
        if (name && shown && !f.closest('[aria-hidden="true"]') && !/^(presentation|none)$/i.test((f.getAttribute('role') ?? '').trim())) frames.push({ index, name: name.slice(0, 300) });
      });
      return { title, present: !!document.querySelector('title'), text, frames };
    }, { cap: TEXT_CAP, max: MAX_FRAMES });
    const genericFrames = facts.frames.flatMap((f) => {
      const kind = genericFrameTitle(f.name);
      return kind ? [{ ...f, kind }] : [];
    });
    const frameFindings = genericFrames.length === 0 ? [] : await describeFrames(page, genericFrames, MAX_FRAMES);
    // The title element is described (which builds axe's tree of the whole page) only when there
    // is something to say of it: most titles pass.
    if (!facts.present || titleFindings({ ...facts, at: { selector: 'title', html: '' } }, finalUrl).length === 0) return { findings: frameFindings };
    const at = await page.evaluate((): TitleFacts['at'] => {
      const a = (window as unknown as AuditWindow).__a11yAudit;
      const el = document.querySelector('title');
      if (!el) return null;
      try {
        return a.withTree(() => a.describe(el));
      } catch {
        return { selector: 'title', html: el.outerHTML.slice(0, 300) };
      }
    });
    return { findings: [...titleFindings({ ...facts, at }, finalUrl), ...frameFindings] };
  },
};

/** The findings of the frames whose names say nothing, each described by axe's selector. */
async function describeFrames(page: PageSession['page'], frames: Array<{ index: number; name: string; kind: string }>, max: number): Promise<FindingDraft[]> {
  const described = await page.evaluate(
    ({ indexes, max }: { indexes: number[]; max: number }) => {
      const a = (window as unknown as AuditWindow).__a11yAudit;
      const all = Array.from(document.querySelectorAll('iframe, frame')).slice(0, max);
      return a.withTree(() => indexes.map((i) => (all[i] ? a.describe(all[i]!) : null)));
    },
    { indexes: frames.map((f) => f.index), max },
  );
  return frames.flatMap((f, i) => (described[i] ? [frameTitleFinding(f.name, f.kind, described[i]!)] : []));
}
