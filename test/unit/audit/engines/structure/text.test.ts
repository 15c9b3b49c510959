import { describe, expect, it } from 'vitest';
import type { HeadingCandidate, ImageFact, PageContext } from '../../../../../src/audit/engines/structure/facts.ts';
import { headingLikeText, judgeHeading } from '../../../../../src/audit/engines/structure/headings.ts';
import { baseName, emptyAltInformative, fileNameAlt, hiddenImageText, judgeImageName, placeholderAlt, svgImageOfText, wordyImageOfText } from '../../../../../src/audit/engines/structure/images.ts';
import { LIST_MARKER_SOURCE, lineMarker, longestListRun } from '../../../../../src/audit/engines/structure/lists.ts';
import { SENSORY_PATTERN_SOURCES, sensoryReference } from '../../../../../src/audit/engines/structure/sensory.ts';

const ref = { selector: 'x', html: '<x>' };

describe('list-like lines', () => {
  it('reads bullets and ordinals at the start of a line', () => {
    expect(lineMarker('* apple')).toEqual({ kind: 'bullet', bullet: '*' });
    expect(lineMarker('  • pear')).toEqual({ kind: 'bullet', bullet: '•' });
    expect(lineMarker('12. Twelve')).toEqual({ kind: 'ordinal', value: 12, alpha: false, punct: '.' });
    expect(lineMarker('b) second')).toEqual({ kind: 'ordinal', value: 2, alpha: true, punct: ')' });
    expect(lineMarker('*emphasis*')).toBeNull();
    expect(lineMarker('-5 degrees')).toBeNull();
    expect(lineMarker('2024. A year')).toBeNull();
  });

  it('finds three or more consecutive items with the same bullet', () => {
    expect(longestListRun(['* apple', '* orange', '* banana', '* pear'])).toEqual({ kind: 'bullet', marker: '*', start: 0, length: 4 });
    expect(longestListRun(['Fruit:', '- apple', '- pear', '- plum', 'That is all'])).toMatchObject({ start: 1, length: 3 });
    expect(longestListRun(['* apple', '- orange', '• banana'])).toBeNull();
    expect(longestListRun(['* apple', '* orange'])).toBeNull();
  });

  it('needs ordinals counting up from one', () => {
    expect(longestListRun(['1. one', '2. two', '3. three'])).toMatchObject({ kind: 'ordinal', marker: '1.', length: 3 });
    expect(longestListRun(['a) one', 'b) two', 'c) three'])).toMatchObject({ kind: 'ordinal', length: 3 });
    expect(longestListRun(['1. one', '3. two', '4. three'])).toBeNull();
    expect(longestListRun(['5. one', '6. two', '7. three'])).toBeNull();
    expect(longestListRun(['1. one', '2) two', '3. three'])).toBeNull();
  });

  it('gives the page a preselection pattern at least as wide as the decider', () => {
    const re = new RegExp(LIST_MARKER_SOURCE);
    for (const l of ['* a', '• b', '1. c', '(2) d', 'a) e', '– f']) expect(re.test(l)).toBe(true);
  });
});

describe('visual headings', () => {
  const cand = (over: Partial<HeadingCandidate> = {}): HeadingCandidate => ({
    ref,
    text: 'Fake Heading',
    tag: 'div',
    style: { size: 24, weight: 700 },
    lines: 1,
    next: { tag: 'p', style: { size: 16, weight: 400 }, textLength: 80, isHeading: false },
    ...over,
  });

  it('accepts short title-like text only', () => {
    expect(headingLikeText('Opening times')).toBe(true);
    expect(headingLikeText('What is new?')).toBe(true);
    expect(headingLikeText('This is a sentence.')).toBe(false);
    expect(headingLikeText('42')).toBe(false);
    expect(headingLikeText('one two three four five six seven eight nine ten eleven')).toBe(false);
  });

  it('flags a larger, bold line followed by body text', () => {
    expect(judgeHeading(cand(), 16)).toEqual({ ratio: 1.5, bodyRatio: 1.5, bold: true });
  });

  it('flags bold text only when it is also somewhat larger', () => {
    expect(judgeHeading(cand({ style: { size: 18, weight: 700 } }), 16)).not.toBeNull();
    expect(judgeHeading(cand({ style: { size: 16, weight: 700 } }), 16)).toBeNull();
    expect(judgeHeading(cand({ style: { size: 18, weight: 400 } }), 16)).toBeNull();
  });

  it('does not flag text that is large only next to small print', () => {
    // 16px over a 12px footnote, on a page whose body text is 16px.
    expect(judgeHeading(cand({ style: { size: 16, weight: 700 }, next: { tag: 'p', style: { size: 12, weight: 400 }, textLength: 80, isHeading: false } }), 16)).toBeNull();
  });

  it('needs one line, followed by longer content that is not a heading', () => {
    expect(judgeHeading(cand({ lines: 2 }), 16)).toBeNull();
    expect(judgeHeading(cand({ next: null }), 16)).toBeNull();
    expect(judgeHeading(cand({ next: { tag: 'h2', style: { size: 16, weight: 400 }, textLength: 80, isHeading: true } }), 16)).toBeNull();
    expect(judgeHeading(cand({ next: { tag: 'p', style: { size: 16, weight: 400 }, textLength: 5, isHeading: false } }), 16)).toBeNull();
  });
});

describe('image alt texts', () => {
  const img = (over: Partial<ImageFact>): ImageFact => ({ ref, tag: 'img', alt: null, title: null, src: '/a/b.png', role: null, ariaHidden: false, svgText: null, name: null, inControl: null, width: 10, height: 10, alone: false, inHeading: false, logo: false, infoHint: null, figureCaption: null, ...over });

  it('takes the decoded last path segment of a URL', () => {
    expect(baseName('../assets/bbc-blocks-dark.png?v=2#x')).toBe('bbc-blocks-dark.png');
    expect(baseName('/img/My%20Photo.JPG')).toBe('My Photo.JPG');
    expect(baseName('data:image/png;base64,xx')).toBe('');
  });

  it('confirms an alt that is the image’s own file name', () => {
    expect(fileNameAlt('bbc-blocks-dark.png', '../assets/test_images/bbc-blocks-dark.png')).toEqual({ kind: 'own-src', alt: 'bbc-blocks-dark.png' });
    expect(fileNameAlt('BBC-Blocks-Dark.PNG', '/x/bbc-blocks-dark.png')?.kind).toBe('own-src');
    expect(fileNameAlt('../_images/notebook_components.png', '../_images/notebook_components.png')?.kind).toBe('own-src');
    expect(fileNameAlt('https://cdn.example.com/a/chart%201.png', '/img/chart 1.png')?.kind).toBe('own-src');
    expect(fileNameAlt('images/other.png', '/img/chart.png')?.kind).toBe('file-name');
  });

  it('suspects other file and camera names', () => {
    expect(fileNameAlt('chart.png', '/x/other.png')?.kind).toBe('file-name');
    expect(fileNameAlt('IMG_1234', '/x/y.jpg')?.kind).toBe('camera-name');
    expect(fileNameAlt('DSC01234.JPG', '/x/y.jpg')?.kind).toBe('file-name');
    expect(fileNameAlt('Screenshot 2024-05-01 at 10.00.00', '/s.png')?.kind).toBe('camera-name');
  });

  it('leaves real descriptions and stems alone', () => {
    expect(fileNameAlt('logo', '/logo.png')).toBeNull();
    expect(fileNameAlt('Save the file as report.png to continue', '/x.png')).toBeNull();
    expect(fileNameAlt('', '/x.png')).toBeNull();
    expect(fileNameAlt(null, '/x.png')).toBeNull();
    expect(fileNameAlt('Photo of 2023 team', '/x.png')).toBeNull();
  });

  it('confirms own names only outside links and buttons, on the name the image really gets', () => {
    const jpeg = '/x/nyhavn.jpeg';
    expect(judgeImageName(img({ alt: 'nyhavn.jpeg', src: jpeg }))).toMatchObject({ kind: 'own-src', outcome: 'confirmed' });
    expect(judgeImageName(img({ alt: '94251e110d24a4c2b6e6ce76e7203374', src: '/x/94251e110d24a4c2b6e6ce76e7203374' }))).toMatchObject({ outcome: 'confirmed' });
    // An aria-label overrides the alt.
    expect(judgeImageName(img({ alt: 'nyhavn.jpeg', name: 'Nyhavn harbour', src: jpeg }))).toBeNull();
    // A link that downloads the image's own file: the file name is its purpose.
    expect(judgeImageName(img({ alt: 'nyhavn.jpeg', src: jpeg, inControl: '/x/nyhavn.jpeg' }))).toBeNull();
    expect(judgeImageName(img({ alt: 'login.png', src: '/x/login.png', inControl: '' }))).toMatchObject({ kind: 'own-src', outcome: 'needs_review' });
    expect(judgeImageName(img({ alt: 'pain', src: '/x/pain' }))).toBeNull();
  });

  it('finds hidden images that carry text', () => {
    expect(hiddenImageText(img({ alt: 'W3C logo', role: 'none' }))).toEqual({ hiddenBy: 'role-presentation', text: 'W3C logo', from: 'alt' });
    expect(hiddenImageText(img({ alt: 'W3C logo', ariaHidden: true }))).toMatchObject({ hiddenBy: 'aria-hidden' });
    expect(hiddenImageText(img({ alt: '', title: 'BBC' }))).toEqual({ hiddenBy: 'empty-alt', text: 'BBC', from: 'title' });
    expect(hiddenImageText(img({ alt: '', role: 'presentation' }))).toBeNull();
    expect(hiddenImageText(img({ alt: '', ariaHidden: true, role: 'img' }))).toBeNull();
    expect(hiddenImageText(img({ alt: 'Fireworks' }))).toBeNull();
    expect(hiddenImageText(img({ alt: '' }))).toBeNull();
  });

  it('reads words drawn by an SVG image', () => {
    expect(svgImageOfText(img({ svgText: 'WCAG Rocks' }))).toBe('WCAG Rocks');
    expect(svgImageOfText(img({ svgText: '42' }))).toBeNull();
    expect(svgImageOfText(img({ svgText: null }))).toBeNull();
  });
});

describe('references to position, shape or colour', () => {
  const ctx = (over: Partial<PageContext> = {}): PageContext => ({ buttonNames: [], navCount: 0, headingTexts: [], bodyFontSize: 16, ...over });

  it('finds a thing named by its side of the page', () => {
    expect(sensoryReference('Find the menu on the right, to navigate', ctx())).toMatchObject({ noun: 'menu', kind: 'position' });
    expect(sensoryReference('The artist on the right won the Album of the year', ctx())).toMatchObject({ noun: 'artist' });
    expect(sensoryReference('Use the search box in the top right corner.', ctx())).toMatchObject({ noun: 'box' });
  });

  it('finds things named by shape or colour, or placed next to a shape', () => {
    expect(sensoryReference('Press the green button to continue', ctx({ buttonNames: ['Go', 'Stop'] }))).toMatchObject({ kind: 'shape-or-colour', noun: 'button' });
    expect(sensoryReference('you can find more examples within the triangle menu', ctx())).toMatchObject({ noun: 'menu' });
    expect(sensoryReference('More examples can be found when you look underneath the star', ctx())).toMatchObject({ kind: 'near-shape', noun: 'star' });
  });

  it('finds actions on a shape, cues by sound only, and meaning carried by colour only', () => {
    expect(sensoryReference('To start, click the square.', ctx())).toMatchObject({ kind: 'shape-or-colour', noun: 'square' });
    expect(sensoryReference('Tap the red circle to stop the recording', ctx())).toMatchObject({ noun: 'circle' });
    expect(sensoryReference('Use the round icon to open the menu', ctx())).toMatchObject({ noun: 'icon' });
    expect(sensoryReference('Start speaking when you hear the beep.', ctx())).toMatchObject({ kind: 'sound', noun: 'beep' });
    expect(sensoryReference('Leave your message after the tone.', ctx())).toMatchObject({ kind: 'sound', noun: 'tone' });
    expect(sensoryReference('Required fields are marked in red.', ctx())).toMatchObject({ kind: 'colour-meaning', noun: 'red' });
    expect(sensoryReference('The dates in green are available for booking.', ctx())).toMatchObject({ kind: 'colour-meaning', noun: 'green' });
    expect(sensoryReference('The green mushrooms listed here are OK to eat. The red mushrooms will kill you.', ctx())).toMatchObject({ kind: 'colour-meaning', noun: 'green' });
    expect(sensoryReference('Click the green button to pay', ctx({ buttonNames: ['Pay', 'Cancel'] }))).toMatchObject({ noun: 'button' });
    expect(sensoryReference('Pick the box on the right for the larger size.', ctx())).toMatchObject({ noun: 'box', kind: 'position' });
  });

  it('leaves shapes, sounds and colours that are not the only cue alone', () => {
    for (const t of [
      'Press the square brackets key to index the list.',
      'Take the square root of the variance.',
      'Required fields are marked in red and with an asterisk (*).',
      'Start speaking when you hear the beep or see the light turn on.',
      'The sound of the sea was heard all night.',
      'We painted the fence in red last summer, and it looks fine.',
      'The red fox ran past the green hills and the red barn.',
      'The function returns the tone of the message as a string.',
      'Errors are highlighted in red by the terminal, with the word ERROR before them.',
    ]) {
      expect(sensoryReference(t, ctx()), t).toBeNull();
    }
  });

  it('accepts references that also name the thing', () => {
    expect(sensoryReference('Click the button labelled "howdy", on the right, for a surprise', ctx())).toBeNull();
    expect(sensoryReference('look underneath the star or search for the “Examples” heading', ctx())).toBeNull();
    expect(sensoryReference('Find the menu on the right, to navigate', ctx({ headingTexts: ['Menu'] }))).toBeNull();
    expect(sensoryReference('Find the navigation on the right', ctx({ navCount: 1 }))).toBeNull();
    expect(sensoryReference('Find the navigation on the right', ctx({ navCount: 2 }))).not.toBeNull();
    expect(sensoryReference('Click the round button, for a surprise', ctx({ buttonNames: ['Round button', 'Other'] }))).toBeNull();
    expect(sensoryReference('Click the green button', ctx({ buttonNames: ['Howdy'] }))).toBeNull();
  });

  it('ignores figurative and relative uses', () => {
    expect(sensoryReference('We are on the right track with this release.', ctx())).toBeNull();
    expect(sensoryReference('Put the files in the right order.', ctx())).toBeNull();
    expect(sensoryReference('See the table below for details.', ctx())).toBeNull();
    expect(sensoryReference('Interact with the button below this paragraph', ctx())).toBeNull();
    expect(sensoryReference('The value on the left of the operator is evaluated first.', ctx())).toBeNull();
    expect(sensoryReference('A square is a regular quadrilateral with four equal sides.', ctx())).toBeNull();
  });

  it('gives the page patterns that match what the decider looks at', () => {
    const res = SENSORY_PATTERN_SOURCES.map((s) => new RegExp(s, 'iu'));
    expect(res.some((r) => r.test('Find the menu on the right'))).toBe(true);
    for (const t of ['Speak when you hear the beep', 'click the square', 'Fields marked in red are required']) expect(res.some((r) => r.test(t)), t).toBe(true);
    expect(res.some((r) => r.test('nothing here'))).toBe(false);
  });
});

describe('informative images and images of text', () => {
  const img = (over: Partial<ImageFact>): ImageFact => ({ ref, tag: 'img', alt: null, title: null, src: '/a/b.png', role: null, ariaHidden: false, svgText: null, name: null, inControl: null, width: 10, height: 10, alone: false, inHeading: false, logo: false, infoHint: null, figureCaption: null, ...over });

  it('finds placeholder alt texts (F30, F39) and leaves descriptions alone', () => {
    for (const a of ['image', 'Photo', 'spacer', 'picture 2', 'IMAGE.', 'graphic', 'an image', 'icon', 'thumbnail']) expect(placeholderAlt(a), a).toBe(true);
    for (const a of ['Photo of the team', 'logo', 'Imagery guidelines', 'W3C logo', 'Spacer bar chart', 'pictures of cats']) expect(placeholderAlt(a), a).toBe(false);
    expect(judgeImageName(img({ alt: 'image' }))).toMatchObject({ kind: 'placeholder', outcome: 'confirmed' });
    expect(judgeImageName(img({ alt: 'icon' }))).toMatchObject({ kind: 'placeholder', outcome: 'needs_review' });
    expect(judgeImageName(img({ alt: 'image', inControl: '/gallery' }))).toMatchObject({ kind: 'placeholder', outcome: 'needs_review' });
    expect(judgeImageName(img({ alt: 'image', name: 'Sales by month' }))).toBeNull();
  });

  it('finds images marked decorative whose name says they inform, alone and outside controls', () => {
    const logo = { alt: '', src: '/a/w3c-logo.png', infoHint: 'logo', alone: true, width: 72, height: 48 };
    expect(emptyAltInformative(img(logo))).toBe('logo');
    expect(emptyAltInformative(img({ ...logo, role: 'presentation', alt: null }))).toBe('logo');
    expect(emptyAltInformative(img({ ...logo, alone: false }))).toBeNull();
    expect(emptyAltInformative(img({ ...logo, inControl: '/' }))).toBeNull();
    expect(emptyAltInformative(img({ ...logo, alt: 'W3C' }))).toBeNull();
    expect(emptyAltInformative(img({ ...logo, infoHint: null }))).toBeNull();
    expect(emptyAltInformative(img({ ...logo, width: 16, height: 16 }))).toBeNull();
  });

  it('finds the image a captioned figure presents marked decorative, whatever its name (issue 43)', () => {
    const pictured = { alt: '', src: '/a/p1.jpg', figureCaption: 'Our new library, opened in May', width: 400, height: 300 };
    expect(emptyAltInformative(img(pictured))).toBe('figure');
    expect(emptyAltInformative(img({ ...pictured, alt: 'The library seen from the park' }))).toBeNull();
    expect(emptyAltInformative(img({ ...pictured, inControl: '/library' }))).toBeNull();
    expect(emptyAltInformative(img({ ...pictured, figureCaption: null }))).toBeNull();
  });

  it('finds wordy alt texts on images shaped like banners, buttons or headings, but not logos or descriptions', () => {
    const banner = { alt: 'The Accessibility Conformance Testing (ACT) Rules Format 1.0 defines a format for writing accessibility test rules.', width: 527, height: 263 };
    expect(wordyImageOfText(img(banner))).toMatchObject({ shape: 'banner' });
    expect(wordyImageOfText(img({ ...banner, logo: true }))).toBeNull();
    expect(wordyImageOfText(img({ alt: 'Summer Sale Starts Today', width: 600, height: 120 }))).toMatchObject({ shape: 'banner' });
    expect(wordyImageOfText(img({ alt: 'fireworks going off behind the Eiffel tower at night', width: 600, height: 300 }))).toBeNull();
    expect(wordyImageOfText(img({ alt: 'A photo of the Eiffel Tower At Night', width: 600, height: 300 }))).toBeNull();
    expect(wordyImageOfText(img({ tag: 'input', alt: 'Press me', width: 84, height: 45, alone: true }))).toMatchObject({ shape: 'control' });
    expect(wordyImageOfText(img({ tag: 'input', alt: 'Decrease text size', width: 50, height: 50, alone: true }))).toBeNull();
    expect(wordyImageOfText(img({ alt: 'Improved dashboard', width: 460, height: 97, inControl: '../_images/ipy_013_dashboard.png', alone: true }))).toBeNull();
    expect(wordyImageOfText(img({ alt: 'Inheritance diagram of IPython.core.ultratb', width: 768, height: 100 }))).toBeNull();
    expect(wordyImageOfText(img({ alt: 'Sign Up Now', width: 120, height: 40, inControl: '/join', alone: true }))).toMatchObject({ shape: 'control' });
    expect(wordyImageOfText(img({ alt: 'Our services', width: 300, height: 60, inHeading: true, alone: true }))).toMatchObject({ shape: 'heading' });
    expect(wordyImageOfText(img({ alt: 'Portrait', width: 300, height: 60, inHeading: true, alone: true }))).toBeNull();
  });
});
