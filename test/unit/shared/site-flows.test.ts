import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PutSiteFlowsBody } from '../../../src/api/schemas/site-flows.schema.ts';
import { describeStep } from '../../../src/audit/session/scripted-steps.ts';
import { SecretsKey } from '../../../src/security/secrets.ts';
import { openSiteFlows, sealSiteFlows } from '../../../src/security/site-seal.ts';
import { duplicateFlowNames, flowNameOf, flowPagePath, flowPageUrl, flowStartUrl, flowUrlsOf, summarizeSiteFlows, type SiteFlowsSetup } from '../../../src/shared/site-flows.ts';

const BASE = 'https://example.org/';
const SETUP: SiteFlowsSetup = {
  flows: [
    {
      name: 'contact form sent empty',
      steps: [
        { action: 'goto', url: 'https://example.org/contact#form' },
        { action: 'fill', label: 'Name', value: 'SECRET-1' },
        { action: 'select', selector: '#topic', value: 'SECRET-2' },
        { action: 'press', key: 'Enter', selector: '#name' },
      ],
    },
    { name: 'search: no results', steps: [{ action: 'fill', selector: '#q', value: 'SECRET-3' }, { action: 'press', key: 'Enter' }, { action: 'goto', url: 'https://example.org/search' }], stepTimeoutMs: 2000 },
  ],
};

describe('site flows', () => {
  it("names a flow's page by its first goto URL (without its fragment), else the base URL, and the flow's name", () => {
    expect(flowPageUrl(SETUP.flows[0]!, BASE)).toBe('https://example.org/contact#flow:contact%20form%20sent%20empty');
    // The first goto anywhere in the steps names the page; the flow still starts at the base URL.
    expect(flowPageUrl(SETUP.flows[1]!, BASE)).toBe('https://example.org/search#flow:search%3A%20no%20results');
    expect(flowStartUrl(SETUP.flows[1]!, BASE)).toBe(BASE);
    expect(flowStartUrl(SETUP.flows[0]!, BASE)).toBe('https://example.org/contact#form');
    expect(flowPageUrl({ name: 'x', steps: [{ action: 'press' }] }, 'https://Example.org.:443/')).toBe('https://example.org/#flow:x');
    expect(flowPagePath('https://example.org/contact?a=1#flow:x%20y')).toBe('/contact?a=1#flow:x%20y');
  });

  it('reads the flow name back from any page URL it made, and none from other URLs', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (name) => {
        expect(flowNameOf(flowPageUrl({ name, steps: [] }, BASE))).toBe(name);
      }),
    );
    for (const url of ['https://example.org/', 'https://example.org/#/route', 'https://example.org/#!flow:x', 'https://example.org/a#b#flow:x', 'https://example.org/#flow:', 'https://example.org/#flow:%E0%A4%A'])
      expect(flowNameOf(url), url).toBeUndefined();
  });

  it('shows steps without the values they type or pick', () => {
    const summary = summarizeSiteFlows(SETUP);
    expect(JSON.stringify(summary)).not.toMatch(/SECRET/);
    expect(summary.flows[0]!.steps).toEqual([
      { action: 'goto', url: 'https://example.org/contact#form' },
      { action: 'fill', label: 'Name', hasValue: true },
      { action: 'select', selector: '#topic', hasValue: true },
      { action: 'press', key: 'Enter', selector: '#name' },
    ]);
    expect(summary.flows.map((f) => f.stepTimeoutMs)).toEqual([10_000, 2000]);
    for (const flow of SETUP.flows) for (const [i, s] of flow.steps.entries()) expect(describeStep(s, i, 'step')).not.toMatch(/SECRET/);
    expect(describeStep(SETUP.flows[0]!.steps[2]!, 2, 'step')).toBe('step 3 (select #topic)');
    expect(describeStep(SETUP.flows[0]!.steps[3]!, 3, 'step')).toBe('step 4 (press Enter in #name)');
  });

  it("lists the flows' goto URLs for the same-site check, and names given twice", () => {
    expect(flowUrlsOf(SETUP)).toEqual([
      { path: 'flows.0.steps.0.url', url: 'https://example.org/contact#form' },
      { path: 'flows.1.steps.2.url', url: 'https://example.org/search' },
    ]);
    expect(duplicateFlowNames({ flows: [{ name: 'A', steps: [] }, { name: 'b', steps: [] }, { name: 'a', steps: [] }] })).toEqual([{ path: 'flows.2.name', name: 'a' }]);
  });

  it('validates the request body: bounds, names, steps', () => {
    expect(PutSiteFlowsBody.safeParse(SETUP).success).toBe(true);
    const bad = (body: unknown) => PutSiteFlowsBody.safeParse(body).success;
    const step = { action: 'press', key: 'Tab' };
    expect(bad({ flows: [] })).toBe(false);
    expect(bad({ flows: Array.from({ length: 21 }, (_, i) => ({ name: `f${i}`, steps: [step] })) })).toBe(false);
    expect(bad({ flows: Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, steps: [step] })) })).toBe(true);
    expect(bad({ flows: [{ name: 'f', steps: Array.from({ length: 31 }, () => step) }] })).toBe(false);
    expect(bad({ flows: [{ name: 'x'.repeat(81), steps: [step] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'a\nb', steps: [step] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'Same', steps: [step] }, { name: 'same', steps: [step] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'f', steps: [{ action: 'hover', selector: '#a' }] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'f', steps: [{ action: 'goto', url: 'javascript:alert(1)' }] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'f', steps: [{ action: 'select', value: 'x' }] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'f', steps: [{ action: 'press', key: 'Shift+Tab' }, { action: 'press', key: 'a' }, { action: 'press', key: 'ArrowDown', label: 'Menu' }] }] })).toBe(true);
    expect(bad({ flows: [{ name: 'f', steps: [{ action: 'press', key: 'Enter', selector: '#a', label: 'A' }] }] })).toBe(false);
    expect(bad({ flows: [{ name: 'f', steps: [step], extra: 1 }] })).toBe(false);
    const dup = PutSiteFlowsBody.safeParse({ flows: [{ name: 'Same', steps: [step] }, { name: 'same', steps: [step] }] });
    expect(dup.error?.issues[0]?.path).toEqual(['flows', 1, 'name']);
  });

  it('seals the flows for their own row only', () => {
    const key = SecretsKey.parse(Buffer.alloc(32, 7).toString('base64'));
    const sealed = sealSiteFlows(key, 'site-1', SETUP);
    expect(sealed.ciphertext.includes(Buffer.from('SECRET-1'))).toBe(false);
    expect(openSiteFlows(key, 'site-1', sealed)).toEqual(SETUP);
    expect(() => openSiteFlows(key, 'site-2', sealed)).toThrow();
  });
});
