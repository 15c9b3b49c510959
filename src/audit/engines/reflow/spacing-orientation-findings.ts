import type { FindingDraft } from '../../../shared/findings.ts';
import { REFLOW_RULES } from '../../../shared/rules/reflow.ts';
import { ownFinding, understandingUrl } from '../engine.ts';
import type { ClipHit } from './geometry.ts';
import { PORTRAIT, type OrientationState, type OrientationVerdict } from './orientation.ts';
import type { SpillHit } from './text-spacing.ts';

/** An element as the findings name it (axe's selector and HTML). */
export interface Described {
  selector: string;
  html: string;
}

/** The findings of the text-spacing check (1.4.12). */
export function spacingFindings(described: ReadonlyArray<Described | null>, clips: readonly ClipHit[], spills: readonly SpillHit[], at: { width: number; height: number }): FindingDraft[] {
  const out: FindingDraft[] = [];
  const how = `With the text spacing of WCAG 1.4.12 (line height 1.5, 2 em after paragraphs, letter spacing 0.12 em, word spacing 0.16 em) at ${at.width} px wide,`;
  const help = 'Let text boxes grow when the text spacing is increased';
  const description =
    'People must be able to set line height to 1.5 times the font size, spacing after paragraphs to 2 times, letter spacing to 0.12 times and word spacing to 0.16 times without losing content: no text may be cut off or overlap other text (F104).';
  clips.forEach((h, i) => {
    const d = described[i];
    if (!d) return;
    const reason = 'A control next to the box may show the rest of the text: check whether it does.';
    out.push(
      ownFinding({
        ruleId: REFLOW_RULES.spacingClipped,
        type: h.expander ? 'needs_review' : 'confirmed',
        severity: 'serious',
        criterion: '1.4.12',
        selector: d.selector,
        html: d.html,
        help,
        description,
        failureSummary: `${how} this ${h.width}×${h.height} px box hides its overflow and cuts off text ${h.axes.join(' and ')}ly${h.text ? `, e.g. "${h.text}"` : ''}; without the spacing the text fits.${h.expander ? ` ${reason}` : ''}`,
        helpUrl: understandingUrl('text-spacing'),
        data: { viewport: `${at.width}x${at.height}`, axes: h.axes, box: { width: h.width, height: h.height }, ...(h.expander ? { expandControl: true, review: { reason } } : {}) },
      }),
    );
  });
  spills.forEach((h, j) => {
    const d = described[clips.length + j];
    const other = described[clips.length + spills.length + j];
    if (!d) return;
    const reason = 'The text it runs over is in an absolutely positioned box (an overlay, maybe meant to cover): check whether text is lost.';
    out.push(
      ownFinding({
        ruleId: REFLOW_RULES.spacingOverlap,
        type: h.positioned ? 'needs_review' : 'confirmed',
        severity: 'serious',
        criterion: '1.4.12',
        selector: d.selector,
        html: d.html,
        help,
        description,
        failureSummary:
          `${how} the text of this ${h.width}×${h.height} px box reaches ${h.spill} px below it${h.text ? ` ("${h.text}")` : ''} and runs over the text after it` +
          `${h.otherText ? ` ("${h.otherText}"${other ? `, in ${other.selector}` : ''})` : ''}; without the spacing it fits.${h.positioned ? ` ${reason}` : ''}`,
        helpUrl: understandingUrl('text-spacing'),
        data: {
          viewport: `${at.width}x${at.height}`,
          box: { width: h.width, height: h.height },
          spill: h.spill,
          ...(other ? { overlaps: other.selector } : {}),
          ...(h.positioned ? { review: { reason } } : {}),
        },
      }),
    );
  });
  return out;
}

/** The finding of the orientation check (1.3.4), on the box whose rotation was measured. */
export function orientationFinding(
  d: Described,
  verdict: OrientationVerdict,
  orientation: { portrait: OrientationState; landscape: OrientationState; locks: readonly string[] },
  landscapeSize: { width: number; height: number },
): FindingDraft {
  return ownFinding({
    ruleId: REFLOW_RULES.orientation,
    type: verdict.type,
    severity: 'serious',
    criterion: '1.3.4',
    selector: d.selector,
    html: d.html,
    help: 'Let the page work in portrait and landscape',
    description:
      'Content must not be restricted to one display orientation (portrait or landscape) unless that orientation is essential: no rotation of the page, no hidden content and no orientation lock in the other orientation.',
    failureSummary: `At ${PORTRAIT.width}×${PORTRAIT.height} (portrait) and ${landscapeSize.width}×${landscapeSize.height} (landscape): ${verdict.reason}`,
    helpUrl: understandingUrl('orientation'),
    data: {
      kind: verdict.kind,
      orientation: verdict.orientation,
      rotation: { portrait: Math.round(orientation.portrait.rotation), landscape: Math.round(orientation.landscape.rotation) },
      visibleText: { portrait: orientation.portrait.visibleText, landscape: orientation.landscape.visibleText },
      ...(orientation.locks.length ? { locks: [...orientation.locks] } : {}),
      ...(verdict.type === 'needs_review' ? { review: { reason: verdict.reason } } : {}),
    },
  });
}
