import { describe, expect, it } from 'vitest';
import type { ControlFacts, FormPageFacts } from '../../../../../src/audit/engines/forms/facts.ts';
import { formFindings } from '../../../../../src/audit/engines/forms/findings.ts';
import { FORM_RULES } from '../../../../../src/shared/rules/forms.ts';

let n = 0;
function control(over: Partial<ControlFacts> = {}): ControlFacts {
  n++;
  return {
    ref: { selector: `#c${n}`, html: `<input id="c${n}">` },
    tag: 'input',
    type: 'text',
    role: 'textbox',
    choice: false,
    name: `Field ${n} name`,
    nameFrom: 'label',
    labelText: `Field ${n} name`,
    description: '',
    required: false,
    invalid: false,
    errorMessage: '',
    form: 0,
    formElement: 0,
    groupName: '',
    groupLabel: null,
    inUnnamedFieldset: false,
    heading: '',
    orphanLabel: null,
    crossedLabel: null,
    hint: '',
    labelGap: null,
    marker: null,
    ...over,
  };
}
function facts(over: Partial<FormPageFacts>): FormPageFacts {
  return { controls: [], widgets: [], fieldsets: [], messages: [], asteriskExplained: false, examined: 0, capped: false, ...over };
}
const rules = (f: FormPageFacts) => formFindings(f).drafts.map((d) => `${d.rule} ${d.type} ${d.criterion} ${d.ref.selector}`);

describe('forms findings', () => {
  it('finds nothing on well-labelled fields', () => {
    expect(rules(facts({ controls: [control(), control(), control({ required: true, marker: { text: 'Name *', where: 'label' } })] }))).toEqual([]);
  });

  it('confirms a <label> beside a field named otherwise; text before it is only for review; an unnamed field is left to axe', () => {
    const a = control({ name: 'Your address', nameFrom: 'title', labelText: '', orphanLabel: { text: 'Email', kind: 'label-for-missing' } });
    const b = control({ name: '01234', nameFrom: 'placeholder', labelText: '', orphanLabel: { text: 'Phone:', kind: 'text-before' } });
    const c = control({ name: '', nameFrom: 'none', labelText: '', orphanLabel: { text: 'Town', kind: 'label-wraps-nothing' } });
    const d = control({ name: 'Country', nameFrom: 'aria-label', labelText: '', orphanLabel: { text: 'Country', kind: 'text-before' } });
    expect(rules(facts({ controls: [a, b, c, d] }))).toEqual([
      `${FORM_RULES.labelNotAssociated} confirmed 1.3.1 ${a.ref.selector}`,
      `${FORM_RULES.labelNotAssociated} needs_review 1.3.1 ${b.ref.selector}`,
    ]);
  });

  it('reports one unnamed group per radio name, and none inside an unnamed fieldset (the fieldset is reported)', () => {
    const radio = (name: string, over: Partial<ControlFacts> = {}) => control({ type: 'radio', role: 'radio', choice: true, groupName: name, ...over });
    const out = rules(
      facts({
        controls: [radio('a'), radio('a'), radio('b', { groupLabel: 'Colour' }), radio('b', { groupLabel: 'Colour' }), radio('c', { groupLabel: '', inUnnamedFieldset: true }), radio('c', { groupLabel: '', inUnnamedFieldset: true }), radio('d')],
        fieldsets: [{ ref: { selector: 'fieldset', html: '<fieldset>' }, name: '', legend: 'none', controls: 2 }],
      }),
    );
    expect(out.filter((r) => r.startsWith(FORM_RULES.groupUnnamed))).toHaveLength(1);
    expect(out).toContain(`${FORM_RULES.fieldsetUnnamed} needs_review 1.3.1 fieldset`);
  });

  it('tells same-named fields apart by form, group or heading', () => {
    const same = rules(facts({ controls: [control({ name: 'Name' }), control({ name: 'Name:' })] }));
    expect(same.filter((r) => r.startsWith(FORM_RULES.labelNotUnique))).toHaveLength(2);
    expect(rules(facts({ controls: [control({ name: 'Name', heading: 'Shipping' }), control({ name: 'Name', heading: 'Billing' })] }))).toEqual([]);
    expect(rules(facts({ controls: [control({ name: 'Name', groupLabel: 'Home' }), control({ name: 'Name', groupLabel: 'Work' })] }))).toEqual([]);
    expect(rules(facts({ controls: [control({ name: 'Email', formElement: 0 }), control({ name: 'Email', formElement: 1 })] }))).toEqual([]);
  });

  it('reports a required marker without required state, unless the name says "required"', () => {
    const star = control({ marker: { text: 'Name *', where: 'label' } });
    const word = control({ name: 'Street (required)', marker: { text: 'Street (required)', where: 'label' } });
    const beside = control({ marker: { text: '(required)', where: 'adjacent' } });
    expect(rules(facts({ controls: [star, word, beside] }))).toEqual([
      `${FORM_RULES.requiredVisualOnly} needs_review 1.3.1 ${star.ref.selector}`,
      `${FORM_RULES.requiredVisualOnly} needs_review 1.3.1 ${beside.ref.selector}`,
    ]);
    expect(formFindings(facts({ controls: [star], asteriskExplained: true })).drafts[0]!.summary).not.toContain('explains the asterisk');
  });

  it('reports an invalid field with no message only when its form shows none', () => {
    const bad = control({ invalid: true });
    const told = control({ invalid: true, description: 'Enter a date like 12/03/2025' });
    expect(rules(facts({ controls: [bad, told] }))).toEqual([`${FORM_RULES.invalidNoMessage} needs_review 3.3.1 ${bad.ref.selector}`]);
    const shown = facts({ controls: [control({ invalid: true })], messages: [{ ref: { selector: '#m', html: '' }, text: 'Age must be a number', associated: true, hiddenFromAT: false, form: 0 }] });
    expect(rules(shown)).toEqual([]);
  });

  it('confirms label-in-name failures of widgets, and lists the passes that withdraw axe\'s doubts', () => {
    const out = formFindings(
      facts({
        widgets: [
          { ref: { selector: '#a', html: '' }, role: 'link', visibleText: 'ACT rules', name: 'WCAG' },
          { ref: { selector: '#b', html: '' }, role: 'button', visibleText: 'Next…', name: 'Next' },
          { ref: { selector: '#c', html: '' }, role: 'button', visibleText: 'X', name: 'Close' },
          { ref: { selector: '#d', html: '' }, role: 'button', visibleText: '', name: 'Find' },
        ],
      }),
    );
    expect(out.drafts.map((d) => `${d.rule} ${d.type} ${d.ref.selector}`)).toEqual([`${FORM_RULES.labelInName} confirmed #a`]);
    expect(out.passedNames.map((r) => r.selector)).toEqual(['#b', '#d']);
  });

  it('reports a field far from its label, a vague name and a placeholder-only field for review', () => {
    const far = control({ labelGap: 900 });
    const near = control({ labelGap: 12 });
    const vague = control({ name: 'Input', labelText: 'Input' });
    const ph = control({ name: 'Search', nameFrom: 'placeholder', labelText: '' });
    expect(rules(facts({ controls: [far, near, vague, ph] }))).toEqual([
      `${FORM_RULES.labelFar} needs_review 3.3.2 ${far.ref.selector}`,
      `${FORM_RULES.labelNotDescriptive} needs_review 2.4.6 ${vague.ref.selector}`,
      `${FORM_RULES.placeholderOnly} needs_review 3.3.2 ${ph.ref.selector}`,
    ]);
  });
});
