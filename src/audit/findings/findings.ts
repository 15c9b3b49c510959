import { createHash } from 'node:crypto';
import { parseDocument } from 'htmlparser2';
import type { InteractionState, IssueType, Severity, ViewportName } from '../../shared/contracts.ts';
import { SEVERITIES } from '../../shared/contracts.ts';
import { AXE_ALSO_FAILS_IMAGE_CONTROL, AXE_BEST_PRACTICE_CRITERIA, holdsImage, ruleEntry } from '../../shared/rules/index.ts';
import { criteriaForTags, lowestLevel, wcagCriteria } from '../../shared/wcag.ts';
import type { FindingDraft, PassedRule, ContrastFacts, ElementFacts, ReviewFacts, EngineFacts } from '../../shared/findings.ts';

/** One check of an axe node result (axe-core's CheckResult, narrowed): what it measured and said. */
export interface AxeCheckResult {
  id: string;
  data?: unknown;
  message?: string;
}

/** The parts of an axe result we read (axe-core's Result / NodeResult, narrowed). */
export interface AxeRuleResult {
  id: string;
  impact?: string | null;
  tags: string[];
  description: string;
  help: string;
  helpUrl?: string;
  nodes: Array<{
    target: unknown[];
    html: string;
    impact?: string | null;
    failureSummary?: string;
    any?: AxeCheckResult[];
    all?: AxeCheckResult[];
    none?: AxeCheckResult[];
  }>;
}



const MAX_HTML = 4000;

// ---- what the engine measured -------------------------------------------------------------------






const MAX_TEXT = 160;
const MAX_URL = 500;
const MAX_ATTR = 120;
/** axe's own source shortening leaves `...` at cut attribute values and ` ...>` at a cut tag. */
const AXE_CUT = /\.\.\.$/;

function str(v: unknown, max: number): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.replace(/\s+/g, ' ').trim();
  if (t === '') return undefined;
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) / 100 : undefined;
}

const HEX = /^#[0-9a-f]{6}([0-9a-f]{2})?$/i;
const hex = (v: unknown) => (typeof v === 'string' && HEX.test(v) ? v.toLowerCase() : undefined);

function compact<T extends object>(o: T): T | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length ? out : undefined;
}

function checkData(checks: readonly AxeCheckResult[], id: string): Record<string, unknown> | undefined {
  const d = checks.find((c) => c.id === id)?.data;
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined;
}

interface ParsedTag {
  name: string;
  attribs: Record<string, string>;
  children: unknown[];
}
interface ParsedText {
  type: string;
  data: string;
}
const isTag = (n: unknown): n is ParsedTag => typeof n === 'object' && n !== null && 'name' in n && 'attribs' in n;
const isText = (n: unknown): n is ParsedText => typeof n === 'object' && n !== null && (n as ParsedText).type === 'text';

function textOf(nodes: readonly unknown[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (isText(n)) out.push(n.data);
    else if (isTag(n) && n.name !== 'script' && n.name !== 'style' && n.name !== 'template') textOf(n.children, out);
  }
  return out;
}

/** The first element of an HTML snippet, parsed as HTML (entities decoded, names lower-cased). */
export function parseElement(html: string): { tag: string; attribs: Record<string, string>; text: string; hasChildElements: boolean; truncated: boolean } | undefined {
  const doc = parseDocument(html.slice(0, MAX_HTML), { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true });
  const el = (doc.children as unknown[]).find(isTag);
  if (!el) return undefined;
  const truncated = /\s\.\.\.>\s*$/.test(html) || html.length > MAX_HTML || Object.values(el.attribs).some((v) => AXE_CUT.test(v));
  return {
    tag: el.name,
    attribs: el.attribs,
    text: textOf(el.children).join('').replace(/\s+/g, ' ').trim(),
    hasChildElements: el.children.some(isTag),
    truncated,
  };
}

type ElementField = Exclude<keyof ElementFacts, 'tag' | 'truncated' | 'hasChildElements'>;
const ELEMENT_FIELDS: Readonly<Record<string, readonly ElementField[]>> = {
  'color-contrast': ['id', 'text'],
  'target-size': ['id', 'type', 'text'],
  'image-alt': ['id', 'src', 'title'],
  'input-image-alt': ['id', 'name', 'src', 'title'],
  label: ['id', 'name', 'type', 'placeholder', 'title'],
  'select-name': ['id', 'name', 'title'],
  'link-name': ['id', 'href', 'title', 'text'],
  'link-text-generic': ['id', 'href', 'title', 'text'],
  'html-has-lang': ['lang'],
  'html-lang-valid': ['lang'],
};
const FIELD_LIMIT: Partial<Record<ElementField, number>> = { src: MAX_URL, href: MAX_URL, text: MAX_TEXT };

function elementFacts(engineRuleId: string, html: string, linkName?: string, linkHref?: string): ElementFacts | undefined {
  const fields = ELEMENT_FIELDS[engineRuleId];
  if (!fields) return undefined;
  const el = parseElement(html);
  if (!el) return undefined;
  const facts: ElementFacts = { tag: el.tag };
  for (const f of fields) {
    const raw = f === 'text' ? (linkName ?? el.text) : f === 'href' ? (linkHref ?? el.attribs.href) : el.attribs[f];
    const v = str(raw, FIELD_LIMIT[f] ?? MAX_ATTR);
    if (v !== undefined) facts[f] = v;
  }
  if (el.hasChildElements && fields.includes('text')) facts.hasChildElements = true;
  if (el.truncated) facts.truncated = true;
  return facts;
}

const REVIEW_KEY_RULES = new Set(['color-contrast', 'target-size', 'link-text-generic']);

/**
 * The facts the engine measured for one failing element, for the rules whose texts use them: the
 * check data axe reports (colours, ratio, sizes), and attributes parsed from the element's HTML.
 * Never the DOM beyond the element's own (already shortened) snippet.
 */
export function engineFacts(
  engineRuleId: string,
  node: AxeRuleResult['nodes'][number],
  type: IssueType,
): EngineFacts {
  const checks = [...(node.any ?? []), ...(node.all ?? []), ...(node.none ?? [])];
  const out: EngineFacts = {};
  if (engineRuleId === 'color-contrast') {
    const d = checkData(checks, 'color-contrast');
    const contrast = d
      ? compact<ContrastFacts>({
          fgColor: hex(d.fgColor),
          bgColor: hex(d.bgColor),
          contrastRatio: num(d.contrastRatio) || undefined, // axe says 0 when it could not measure
          expectedContrastRatio: str(d.expectedContrastRatio, 12),
          fontSize: str(d.fontSize, 40),
          fontWeight: str(d.fontWeight, 20),
        })
      : undefined;
    if (contrast) out.contrast = contrast;
  } else if (engineRuleId === 'target-size') {
    const size = checkData(checks, 'target-size');
    const offset = checkData(checks, 'target-offset');
    const minSize = num(size?.minSize) ?? num(offset?.minOffset) ?? 24;
    out.target = {
      minSize,
      ...compact({
        width: num(size?.width),
        height: num(size?.height),
        closestOffset: num(offset?.closestOffset),
        minOffset: num(offset?.minOffset),
      }),
    };
  }
  const link = engineRuleId === 'link-text-generic' ? checkData(checks, 'a11y-audit-link-text-descriptive') : undefined;
  const element = elementFacts(engineRuleId, node.html, typeof link?.name === 'string' ? link.name : undefined, typeof link?.href === 'string' ? link.href : undefined);
  if (element) out.element = element;
  if (type === 'needs_review') {
    // The check that says why: the rule's only check, or, for rules whose checks set one when they
    // cannot decide, the check with a message key (elsewhere a key may just mean "attribute absent").
    const keyOf = (c: AxeCheckResult) => (c.data && typeof c.data === 'object' ? (c.data as { messageKey?: unknown }).messageKey : undefined);
    const why =
      checks.length === 1 ? checks[0] : REVIEW_KEY_RULES.has(engineRuleId) ? checks.find((c) => typeof keyOf(c) === 'string') : undefined;
    const review = why ? compact<ReviewFacts>({ messageKey: str(keyOf(why), 40), reason: str(why.message, 300) }) : undefined;
    if (review) out.review = review;
  }
  return out;
}

/** axe targets are arrays of selectors, one per frame; shadow DOM adds nested arrays. */
export function selectorFromTarget(target: unknown[]): string {
  return target
    .map((t) => (Array.isArray(t) ? t.map(String).join(' >>> ') : String(t)))
    .join(' >>> ')
    .replace(/\s+/g, ' ')
    .trim();
}

function severityOf(v: string | null | undefined): Severity | undefined {
  return SEVERITIES.find((s) => s === v);
}

/**
 * Every WCAG 2.2 A/AA criterion a finding of an axe rule fails, the primary first: the criteria of
 * the rule's tags in its own order, then the further ones of the rule's catalogue entry
 * (`alsoFails`: `AXE_ALSO_FAILS`, or a service rule's own). A best-practice rule (no WCAG tag)
 * has criteria only where the catalogue lists it with a documented failure
 * (`AXE_BEST_PRACTICE_CRITERIA`); `ruleId` is the id it is reported under (`target-size-mobile`).
 * Empty: not an issue.
 */
export function axeCriteria(axeRuleId: string, tags: readonly string[], ruleId: string = axeRuleId): string[] {
  const fromTags = criteriaForTags(tags);
  const entry = ruleEntry(ruleId);
  if (fromTags.length > 0) return wcagCriteria([...fromTags, ...(entry?.alsoFails ?? [])]);
  return AXE_BEST_PRACTICE_CRITERIA[axeRuleId] && entry ? wcagCriteria([...entry.criteria, ...entry.alsoFails]) : [];
}

/**
 * One draft per failing element of every rule that maps to a WCAG 2.2 A/AA criterion (`axeCriteria`).
 * Rules without one (AAA, best practices with no documented WCAG failure) are dropped: they are not issues.
 */
export function findingsFromAxe(
  rules: readonly AxeRuleResult[],
  type: IssueType,
  opts: { ruleIdFor?: (axeRuleId: string) => string; data?: Record<string, unknown> } = {},
): FindingDraft[] {
  const out: FindingDraft[] = [];
  for (const rule of rules) {
    const ruleId = opts.ruleIdFor ? opts.ruleIdFor(rule.id) : rule.id;
    const criteria = axeCriteria(rule.id, rule.tags, ruleId);
    const primary = criteria[0];
    if (!primary) continue;
    const imageControl = AXE_ALSO_FAILS_IMAGE_CONTROL[rule.id];
    for (const node of rule.nodes) {
      // An image link or image button without a name fails 1.1.1 too (its image says nothing).
      const nodeCriteria = imageControl && holdsImage(node.html) ? wcagCriteria([...criteria, ...imageControl]) : criteria;
      out.push({
        ruleId,
        type,
        severity: severityOf(node.impact) ?? severityOf(rule.impact) ?? 'moderate',
        wcagCriterion: primary,
        wcagLevel: lowestLevel(nodeCriteria)!,
        wcagCriteria: nodeCriteria,
        elementSelector: selectorFromTarget(node.target),
        elementHtml: node.html.length > MAX_HTML ? `${node.html.slice(0, MAX_HTML)}…` : node.html,
        engineHelp: rule.help,
        engineDescription: rule.description,
        failureSummary: node.failureSummary ?? '',
        helpUrl: rule.helpUrl ?? null,
        data: { ...opts.data, ...(ruleId !== rule.id ? { engineRuleId: rule.id } : {}), ...engineFacts(rule.id, node, type) },
      });
    }
  }
  return out;
}

/**
 * One issue per element per primary criterion: the first draft (in the order given) wins, and
 * the rules that found the same thing later are noted in its data as `alsoFlaggedBy`; their
 * further criteria join the winner's (after its own), since the same element fails them. Drafts
 * whose primaries differ stay apart even where their further criteria overlap (an unlabelled
 * field under 4.1.2 and its group under 1.3.1 are two failures): merging is by the primary only,
 * so the issues a page has, and their fingerprints, are what they were before `wcagCriteria`.
 */
export function mergeFindings(drafts: readonly FindingDraft[]): FindingDraft[] {
  const byKey = new Map<string, FindingDraft>();
  for (const d of drafts) {
    const key = `${d.wcagCriterion}\u0000${d.elementSelector}`;
    const first = byKey.get(key);
    // A draft made without criteria (an older caller) fails its primary only.
    const criteria = d.wcagCriteria ?? [d.wcagCriterion];
    if (!first) {
      byKey.set(key, { ...d, wcagCriteria: [...criteria], data: { ...d.data } });
      continue;
    }
    if (criteria.some((c) => !first.wcagCriteria.includes(c))) {
      first.wcagCriteria = wcagCriteria([...first.wcagCriteria, ...criteria]);
      first.wcagLevel = lowestLevel(first.wcagCriteria) ?? first.wcagLevel;
    }
    if (first.ruleId !== d.ruleId) {
      const also = (first.data.alsoFlaggedBy as string[] | undefined) ?? [];
      if (!also.includes(d.ruleId)) first.data.alsoFlaggedBy = [...also, d.ruleId];
    }
  }
  return [...byKey.values()];
}

/** `counts`: elements that passed per rule, where the passes themselves were trimmed (axe's `resultTypes`). */
export function passedRules(rules: readonly AxeRuleResult[], counts: Readonly<Record<string, number>> = {}): PassedRule[] {
  const out: PassedRule[] = [];
  for (const rule of rules) {
    const criterion = axeCriteria(rule.id, rule.tags)[0];
    if (criterion) out.push({ ruleId: rule.id, help: rule.help, wcagCriterion: criterion, elements: counts[rule.id] ?? rule.nodes.length });
  }
  return out;
}

export function normaliseSelector(selector: string): string {
  return selector.replace(/\s+/g, ' ').trim();
}

/**
 * Identity of an issue across crawls: page URL, rule, normalised selector, and, where they apply,
 * the interaction state that revealed it and the viewport. Without either, the identity is the one
 * issues had before states and viewports existed, so their history carries on.
 */
export function fingerprint(
  pageUrl: string,
  ruleId: string,
  selector: string,
  context: { state?: InteractionState | null; viewport?: ViewportName | null } = {},
): string {
  let key = `${pageUrl}\n${ruleId}\n${normaliseSelector(selector)}`;
  if (context.state) key += `\nstate:${context.state.action}:${normaliseSelector(context.state.target)}`;
  if (context.viewport !== undefined && context.viewport !== null) key += `\nviewport:${context.viewport}`;
  return createHash('sha256').update(key).digest('hex').slice(0, 40);
}
