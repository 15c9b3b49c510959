import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { collectLanguageFacts, DEFAULT_LANGUAGE_CAPS, type LanguageFacts } from './collect.ts';
import { judgeLanguage, languageName, scriptCounts, type LanguageVerdict } from './detect.ts';
import { foreignScriptRuns, foreignSentences, otherLanguage } from './parts.ts';
import { expectedScripts, primarySubtag } from './tags.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';
import type { AuditWindow } from '../page-helpers.ts';

/** ACT rules each rule of this engine implements (for the accuracy harness). */
export const ACT_RULES: Record<string, string[]> = {
  'lang-mismatch': ['ucwvc8'],
  'lang-of-parts-mismatch': ['off6ek'],
};

const CAP = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 160);
const MAX_PART_FINDINGS = 10;
const MAX_PASSAGE_FINDINGS = 5;
const MAX_DIRECTION_FINDINGS = 5;
const MAX_SHORT_PASSAGE_FINDINGS = 5;
/**
 * Letters of a script the page's language is not written in (Arabic, Hebrew, Cyrillic, Han… on an
 * English page) from which an unmarked run is `confirmed` under 3.1.2: some eight words or more,
 * never a name or a term (its exceptions). Shorter runs need review.
 */
const SCRIPT_RUN_CONFIRM_LETTERS = 40;

type Mismatch = Extract<LanguageVerdict, { kind: 'mismatch' }>;

interface Target {
  /** A remembered element id, or `html` for the document element. */
  id: number | 'html';
  build: (at: { selector: string; html: string }) => FindingDraft;
}

function langName(subtag: string): string {
  const name = languageName(subtag);
  return name && name !== subtag ? `${name}` : `"${subtag}"`;
}

/** What the detector saw, in one sentence. */
export function describeMismatch(v: Mismatch, declaredAttr: string): string {
  const declared = `${declaredAttr}="${v.declared}" (${langName(v.declared)})`;
  const e = v.evidence;
  const detectedName = v.detected.subtag ? langName(v.detected.subtag) : v.detected.code;
  if (e.byScript) {
    return `declares ${declared}, but none of its ${e.letters} letters is in the script that language is written in (${Math.round(e.scriptShare * 100)}% are ${e.script}); it reads as ${detectedName}.`;
  }
  if (v.detected.uncertain) {
    const words = e.declaredWordShare !== undefined ? `only ${Math.round(e.declaredWordShare * 100)}% of its words are common ${langName(v.declared)} words` : `the detector ranks ${langName(v.declared)} well below other languages`;
    return `declares ${declared}, but its text (${e.letters} letters) does not read as ${langName(v.declared)}: ${words}; the detector's nearest guess is ${detectedName}.`;
  }
  const samples = e.windows > 1 ? `${e.agreeing} of ${e.windows} samples` : 'the sample';
  const words = e.detectedWordShare !== undefined ? `${Math.round(e.detectedWordShare * 100)}% of the words are common ${detectedName} words` : '';
  return `declares ${declared}, but its text (${e.letters} letters) reads as ${detectedName}: ${samples} detected as ${detectedName}${words ? `, and ${words}` : ''}.`;
}

/** Findings from the collected facts: the pure part of the engine. */
/** A `lang-of-parts-mismatch` finding (3.1.2): an element whose lang does not name the language of its text. */
function partMismatch(at: { selector: string; html: string }, type: 'confirmed' | 'needs_review', failureSummary: string, data: Record<string, unknown>): FindingDraft {
  return ownFinding({
    ruleId: 'lang-of-parts-mismatch',
    type,
    severity: 'moderate',
    criterion: '3.1.2',
    ...at,
    help: 'Give passages the lang of the language they are in',
    description: 'An element\'s lang attribute must name the language of its text, so that screen readers switch to the right pronunciation.',
    failureSummary,
    helpUrl: understandingUrl('language-of-parts'),
    data,
  });
}

export function languageTargets(facts: LanguageFacts): Target[] {
  const targets: Target[] = [];
  const pageTag = facts.htmlLang ?? facts.htmlXmlLang;
  const pageAttr = facts.htmlLang !== null ? 'lang' : 'xml:lang';
  const pagePrimary = primarySubtag(pageTag);
  let pageVerdict: LanguageVerdict | undefined;

  // 3.1.1: the page's language against its text.
  if (pageTag && pagePrimary) {
    pageVerdict = judgeLanguage(pageTag, facts.pageText, { scope: 'page' });
    if (pageVerdict.kind === 'mismatch') {
      const v = pageVerdict;
      targets.push({
        id: 'html',
        build: (at) =>
          ownFinding({
            ruleId: 'lang-mismatch',
            type: v.outcome,
            severity: 'serious',
            criterion: '3.1.1',
            ...at,
            help: 'Declare the language the page is written in',
            description: 'The lang attribute of <html> must name the language of the page\'s text, so that screen readers read it with the right pronunciation.',
            failureSummary: `The page ${describeMismatch(v, pageAttr)} ${v.outcome === 'confirmed' ? `Set ${pageAttr}="${v.detected.subtag}" on <html>.` : 'Check which language the page is written in and set it on <html>.'}`,
            helpUrl: understandingUrl('language-of-page'),
            data: { declared: pageTag, detected: v.detected.subtag || null, detectedCode: v.detected.code, uncertain: v.detected.uncertain ?? false, evidence: v.evidence, sample: CAP(facts.pageText) },
          }),
      });
    }
  }

  // 3.1.2: elements with a lang of their own.
  let partFindings = 0;
  for (const part of facts.parts) {
    if (partFindings >= MAX_PART_FINDINGS) break;
    if (!primarySubtag(part.lang)) continue; // invalid values are axe's valid-lang
    const v = judgeLanguage(part.lang, part.text, { scope: 'part' });
    if (v.kind === 'undetermined' && v.reason === 'too-short') {
      // Too short for the detector: a phrase whose function words are all another language's.
      const other = otherLanguage(part.text, primarySubtag(part.lang)!);
      if (!other) continue;
      partFindings++;
      targets.push({
        id: part.id,
        build: (at) =>
          partMismatch(
            at,
            'needs_review',
            `This element declares ${part.attr}="${part.lang}" (${langName(primarySubtag(part.lang)!)}), but its short text reads as ${langName(other.subtag)}: ${other.functionWords} of its ${other.words} words are common ${langName(other.subtag)} words, none common ${langName(primarySubtag(part.lang)!)} ones. Check the language of this text and correct its lang.`,
            { declared: part.lang, attribute: part.attr, detected: other.subtag, detectedCode: other.code, uncertain: true, sample: CAP(part.text), review: { reason: 'A short text, judged by its common words only.' } },
          ),
      });
      continue;
    }
    if (v.kind !== 'mismatch') continue;
    partFindings++;
    targets.push({
      id: part.id,
      build: (at) =>
        partMismatch(
          at,
          v.outcome,
          `This element ${describeMismatch(v, part.attr)} ${v.outcome === 'confirmed' ? `Set ${part.attr}="${v.detected.subtag}".` : 'Check the language of this text and correct its lang.'}`,
          { declared: part.lang, attribute: part.attr, detected: v.detected.subtag || null, detectedCode: v.detected.code, uncertain: v.detected.uncertain ?? false, evidence: v.evidence, sample: CAP(part.text) },
        ),
    });
  }

  // 3.1.2: passages in another language without a lang (only where the page's own language holds).
  if (pageTag && pagePrimary && pageVerdict && pageVerdict.kind !== 'mismatch') {
    let passages = 0;
    for (const block of facts.blocks) {
      if (passages >= MAX_PASSAGE_FINDINGS) break;
      // Confirmed where the detector is sure (at least 250 letters of prose, every window read as
      // the same language, its function words and none of the page language's): a passage that
      // long is not a name, a term or a borrowed phrase, the exceptions of 3.1.2, and a quotation
      // in another language needs its lang as much as any passage (H58).
      const v = judgeLanguage(pageTag, block.text, { scope: 'part' });
      if (v.kind !== 'mismatch' || v.detected.uncertain || !v.detected.subtag) continue;
      passages++;
      const name = langName(v.detected.subtag);
      targets.push({
        id: block.id,
        build: (at) =>
          ownFinding({
            ruleId: 'lang-change-unmarked',
            type: v.outcome,
            severity: 'moderate',
            criterion: '3.1.2',
            ...at,
            help: 'Mark passages in another language with lang',
            description: 'A passage in a language other than the page\'s needs a lang attribute of its own, so that screen readers switch pronunciation for it.',
            failureSummary: `This passage (${v.evidence.letters} letters) reads as ${name}, not ${langName(pagePrimary)} (the page's lang="${pageTag}"), and has no lang of its own. If it is ${name}, wrap it in an element with lang="${v.detected.subtag}".`,
            helpUrl: understandingUrl('language-of-parts'),
            data: { pageLang: pageTag, detected: v.detected.subtag, detectedCode: v.detected.code, evidence: v.evidence, sample: CAP(block.text) },
          }),
      });
    }
  }

  // 3.1.2: short passages in another language inside page-language blocks, told by their script
  // or by their function words (too short for the detector).
  const pageScripts = pageTag ? expectedScripts(pageTag) : null;
  if (pageTag && pagePrimary && pageVerdict && pageVerdict.kind !== 'mismatch') {
    const flagged = new Set(targets.map((t) => t.id));
    // Runs of another script stand out only against a page mostly in its own script.
    const own = pageScripts ? scriptCounts(facts.pageText) : undefined;
    const pageInOwnScript = !!own && !!pageScripts && own.letters > 0 && pageScripts.reduce((n, sc) => n + own.counts[sc], 0) / own.letters >= 0.5;
    let shortPassages = 0;
    for (const block of facts.snippets) {
      if (shortPassages >= MAX_SHORT_PASSAGE_FINDINGS) break;
      if (flagged.has(block.id)) continue;
      const run = pageInOwnScript && pageScripts ? foreignScriptRuns(block.text, pageScripts)[0] : undefined;
      // Only where the page's text is found to be in its language: on a short page, a sentence in
      // another language may be the page's own language, wrongly declared.
      const sentence = run || pageVerdict.kind !== 'match' ? undefined : foreignSentences(block.text, pagePrimary)[0];
      if (!run && !sentence) continue;
      shortPassages++;
      flagged.add(block.id);
      const passage = run ? run.text : sentence!.text;
      const why = run
        ? `is written in ${run.script} script (${run.letters} letters), which ${langName(pagePrimary)} is not written in`
        : `reads as ${langName(sentence!.subtag)}: ${sentence!.functionWords} of its ${sentence!.words} words are common ${langName(sentence!.subtag)} words, none common ${langName(pagePrimary)} ones`;
      // A run of a script the page's language is never written in, of at least
      // SCRIPT_RUN_CONFIRM_LETTERS letters, is several words of another language, not a name.
      const sure = !!run && run.letters >= SCRIPT_RUN_CONFIRM_LETTERS;
      targets.push({
        id: block.id,
        build: (at) =>
          ownFinding({
            ruleId: 'lang-change-unmarked',
            type: sure ? 'confirmed' : 'needs_review',
            severity: 'moderate',
            criterion: '3.1.2',
            ...at,
            help: 'Mark passages in another language with lang',
            description: 'A passage in a language other than the page\'s needs a lang attribute of its own, so that screen readers switch pronunciation for it.',
            failureSummary: `The passage ${JSON.stringify(CAP(passage))} in this element ${why}, and has no lang of its own (the page's lang="${pageTag}"). Unless it is a name or a term used as ${langName(pagePrimary)}, wrap it in an element with the lang of its language${run && (run.script === 'Arabic' || run.script === 'Hebrew') ? ' (and dir="rtl" where it stands on its own)' : ''}.`,
            helpUrl: understandingUrl('language-of-parts'),
            data: {
              pageLang: pageTag,
              passage: CAP(passage),
              ...(run ? { script: run.script, letters: run.letters } : { detected: sentence!.subtag, detectedCode: sentence!.code, functionWords: sentence!.functionWords, words: sentence!.words }),
              sample: CAP(block.text),
              ...(sure ? {} : { review: { reason: 'A short passage: check that it is in another language and not a name, a term or a borrowed phrase.' } }),
            },
          }),
      });
    }
  }

  // 1.3.2: right-to-left text laid out left to right, and the reverse.
  for (const d of facts.dirBlocks.slice(0, MAX_DIRECTION_FINDINGS)) {
    const rtlText = d.rtl > 0;
    targets.push({
      id: d.id,
      build: (at) =>
        ownFinding({
          ruleId: 'text-direction-mismatch',
          type: 'needs_review',
          severity: 'moderate',
          criterion: '1.3.2',
          ...at,
          help: rtlText ? 'Lay right-to-left text out right to left (dir="rtl")' : 'Do not force left-to-right text right to left',
          description: 'Text must be laid out in the direction of its script, so that punctuation, numbers and mixed runs appear in a meaningful order.',
          failureSummary: rtlText
            ? `${Math.round((d.rtl / d.letters) * 100)}% of this text's ${d.letters} letters are in a right-to-left script, but it is laid out left to right (no dir="rtl"). Add dir="rtl" (and its lang).`
            : `This text is written in a left-to-right script (${d.letters} letters, none right-to-left), but it is laid out right to left (dir="rtl" here or on an ancestor). Set dir="ltr" on it.`,
          helpUrl: understandingUrl('meaningful-sequence'),
          data: { direction: d.direction, letters: d.letters, rtlLetters: d.rtl, sample: CAP(d.text) },
        }),
    });
  }
  return targets;
}

/**
 * The page's `lang` against the language of its text (3.1.1), each element's `lang` against its
 * own text and passages in another language without `lang` (3.1.2), and text laid out against
 * its script's direction (1.3.2). Reads at most about 5,000 characters of page text, 150
 * elements with `lang` (2,000 characters each) and 60 passages, in one DOM walk of at most
 * 20,000 elements.
 */
export const languageEngine: ScanEngine = {
  id: 'language',
  stage: 'CustomChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const facts = await page.evaluate(collectLanguageFacts, DEFAULT_LANGUAGE_CAPS);
    const targets = languageTargets(facts);
    if (!targets.length) return { findings: [] };
    const described = await page.evaluate((ids: Array<number | 'html'>) => {
      const a = (window as unknown as AuditWindow).__a11yAudit;
      return a.withTree(() =>
        ids.map((id) => {
          try {
            const el = id === 'html' ? document.documentElement : a.recall(id);
            if (!el || !el.isConnected) return null;
            const d = a.describe(el);
            // The html element's snippet is its start tag, not the whole page.
            return id === 'html' ? { selector: d.selector, html: d.html.split('>')[0] + '>' } : d;
          } catch {
            return null;
          }
        }),
      );
    }, targets.map((t) => t.id));
    const findings: FindingDraft[] = [];
    targets.forEach((t, i) => {
      const at = described[i];
      if (at) findings.push(t.build(at));
    });
    return { findings };
  },
};
