/**
 * The finding model every part shares: what an engine reports for one element (FindingDraft), what
 * a scan stores (NewFindingRecord / FindingRecord), the rules that passed, and the facts an engine
 * measured. Pure types: the audit engine makes them, the database stores them, enrichment and
 * reports read them.
 */
import type { InteractionState, IssueType, Severity, ViewportName, WcagLevel } from './contracts.ts';

export interface FindingDraft {
  ruleId: string;
  type: IssueType;
  severity: Severity;
  /** The criterion it is reported under (the primary): `wcagCriteria[0]`. */
  wcagCriterion: string;
  /** The lowest level among `wcagCriteria`: `A` if any of them is an A criterion. */
  wcagLevel: WcagLevel;
  /**
   * Every WCAG 2.2 A/AA criterion the failure fails, the primary first, each once: the
   * rule's criterion, then the further ones the W3C's failure techniques and Understanding
   * documents tie to it (the catalogue's `alsoFails`). Not part of the issue's identity.
   */
  wcagCriteria: string[];
  elementSelector: string;
  elementHtml: string;
  engineHelp: string;
  engineDescription: string;
  failureSummary: string;
  helpUrl: string | null;
  data: Record<string, unknown>;
  /** The interaction that revealed the element (unset or null: the page's default state). */
  state?: InteractionState | null;
  /** The viewport it failed at, on crawls with several (unset or null: the only one). */
  viewport?: ViewportName | null;
}

export interface PassedRule {
  ruleId: string;
  help: string;
  wcagCriterion: string;
  elements: number;
}

/** `color-contrast`: the colours and ratio axe measured (hex colours, ratio truncated to 2 places). */
export interface ContrastFacts {
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
  /** `4.5:1`, or `3:1` for large text. */
  expectedContrastRatio?: string;
  /** As axe gives it: `12.0pt (16px)`. */
  fontSize?: string;
  fontWeight?: string;
}

/** `target-size` / `target-size-mobile`: the measured box and the spacing to the nearest target, CSS px. */
export interface TargetFacts {
  width?: number;
  height?: number;
  /** The size the rule asks for (24). */
  minSize: number;
  /** Diameter of the safe clickable circle around the target. */
  closestOffset?: number;
  minOffset?: number;
}

/** Attributes and text of the failing element, parsed from its HTML, for the rules that use them. */
export interface ElementFacts {
  tag: string;
  id?: string;
  name?: string;
  type?: string;
  placeholder?: string;
  src?: string;
  href?: string;
  title?: string;
  lang?: string;
  /** Visible text (whitespace collapsed), or the link's accessible name where the engine gave it. */
  text?: string;
  /** The element has child elements (an icon, an image), not only text. */
  hasChildElements?: boolean;
  /** The engine shortened the element's HTML (long attributes or content): values may be cut. */
  truncated?: boolean;
}

/** Why the engine could not decide (needs-review findings). */
export interface ReviewFacts {
  messageKey?: string;
  reason?: string;
}

/** The rule-specific part of a finding's `data`: small, bounded, JSON-safe. */
export interface EngineFacts {
  contrast?: ContrastFacts;
  target?: TargetFacts;
  element?: ElementFacts;
  review?: ReviewFacts;
}

/** What a finding's `data` holds besides rule-specific facts. */
export interface FindingData extends Record<string, unknown> {
  /** Other rules that found the same element failing the same criterion. */
  alsoFlaggedBy?: string[];
  /** The engine's own rule id where the service reports it under another one. */
  engineRuleId?: string;
  /** Requests the target policy blocked while the page loaded. */
  blockedRequests?: number;
  /** The viewport a check ran at when not the desktop one (`390x844` for `target-size-mobile`). */
  viewport?: string;
  /** `color-contrast`: the colours, ratio, required ratio and font the engine measured. */
  contrast?: ContrastFacts;
  /** `target-size(-mobile)`: the measured size and spacing, in CSS px. */
  target?: TargetFacts;
  /** Attributes and text of the element (src, href, id/name/type/placeholder, lang), parsed from its HTML. */
  element?: ElementFacts;
  /** Needs-review findings: why the engine could not decide. */
  review?: ReviewFacts;
}

/** A finding as a scan stores it: the engine's draft with its first texts and its fingerprint. */
export interface NewFindingRecord extends FindingDraft {
  data: FindingData;
  state: InteractionState | null;
  viewport: ViewportName | null;
  /** The issue group (rule + template element); null on findings stored before groups existed. */
  groupKey: string | null;
  description: string;
  fixSuggestion: string;
  fingerprint: string;
}

export interface FindingRecord extends NewFindingRecord {
  id: string;
  pageScanId: string;
  enrichedBy: string | null;
  createdAt: Date;
}

/** What a finding and the issue it becomes both say about the failing element. */
export type ElementFailure = Pick<
  FindingRecord,
  'fingerprint' | 'groupKey' | 'state' | 'viewport' | 'ruleId' | 'type' | 'severity' | 'wcagCriterion' | 'wcagLevel' | 'wcagCriteria' | 'elementSelector' | 'elementHtml' | 'description' | 'fixSuggestion' | 'helpUrl' | 'data'
>;
