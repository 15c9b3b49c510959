import { describe, expect, it } from 'vitest';
import { mentionsAny, scrubberFor, scrubDeep, setupSecrets, stepValues, SCRUBBED, withoutFieldValues } from '../../../src/shared/typed-values.ts';

describe('typed values kept out of stored results', () => {
  it('collects what steps type and pick, and a set-up’s secrets', () => {
    expect(stepValues([{ action: 'goto', url: 'https://x/' }, { action: 'fill', selector: '#u', value: 'ada' }, { action: 'select', label: 'Topic', value: 'billing' }, { action: 'press', key: 'Enter' }])).toEqual(['ada', 'billing']);
    expect(
      setupSecrets({
        headers: { 'X-Token': 'tok-123' },
        cookies: [{ name: 'sid', value: 'cookie-456' }],
        basic: { username: 'ada', password: 'pw-789' },
        login: { url: 'https://x/login', steps: [{ action: 'fill', selector: '#p', value: 'hunter22' }], loggedIn: { selector: '#me' } },
      }).sort(),
    ).toEqual(['cookie-456', 'hunter22', 'pw-789', 'tok-123']);
  });

  it('scrubs a value as typed, HTML-escaped and URL-encoded, longest first, and leaves short values alone', () => {
    const scrub = scrubberFor(['Ada & Co "x"', 'Ada', '7'])!;
    expect(scrub('<p>Hello Ada &amp; Co &quot;x&quot;, or Ada</p>')).toBe(`<p>Hello ${SCRUBBED}, or ${SCRUBBED}</p>`);
    expect(scrub('/thanks?name=Ada%20%26%20Co%20%22x%22 and 7 items')).toBe(`/thanks?name=${SCRUBBED} and 7 items`);
    expect(scrub('a+regex.like(value)')).toBe('a+regex.like(value)');
    expect(scrubberFor(['ab', ''])).toBeNull();
    expect(scrubberFor(['(.*)'])!('x(.*)y')).toBe(`x${SCRUBBED}y`);
  });

  it('scrubs every string of plain data, keys untouched', () => {
    const scrub = scrubberFor(['secret-name'])!;
    expect(scrubDeep({ a: 'hi secret-name', 'secret-name': 1, list: ['secret-name', 2, null], nested: { t: 'secret-name!' } }, scrub)).toEqual({
      a: `hi ${SCRUBBED}`,
      'secret-name': 1,
      list: [SCRUBBED, 2, null],
      nested: { t: `${SCRUBBED}!` },
    });
    expect(mentionsAny('Signed in as secret-name', ['secret-name'])).toBe(true);
    expect(mentionsAny('Signed in', ['secret-name'])).toBe(false);
  });

  it("empties form fields' values in an element's HTML, and text areas' text", () => {
    expect(withoutFieldValues('<p class="value">x <input id="a" value="typed" data-value="keep"> <input value=\'b\'><option value=1 selected>One</option><textarea id="t">typed text</textarea></p>')).toBe(
      '<p class="value">x <input id="a" data-value="keep"> <input><option selected>One</option><textarea id="t"></textarea></p>',
    );
  });
});
