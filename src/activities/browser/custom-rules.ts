/**
 * The service's own checks, registered as axe rules so that they run in the same engine, get
 * the same selectors and HTML snippets, and cover iframes and shadow DOM like axe's own rules.
 * `registerCustomRules` runs inside the page: it may use nothing from this module's scope.
 */

export const CUSTOM_RULE_IDS = {
  linkTextGeneric: 'link-text-generic',
} as const;

/** Link names that say nothing about where a link goes (English; extend per language here). */
export const GENERIC_LINK_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: [
    'click here', 'click', 'here', 'click this', 'this', 'this link', 'link', 'this page', 'page',
    'read more', 'more', 'learn more', 'see more', 'view more', 'find out more', 'more info',
    'more information', 'info', 'details', 'more details', 'go', 'continue', 'start', 'next',
    'previous', 'back', 'website', 'web site', 'download',
  ],
};

function registerCustomRules(axe: any, generic: string[]): void {
  const trimPunct = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;
  const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').replace(trimPunct, '').trim();
  const contextSelector = 'p, li, td, th, dd, dt, h1, h2, h3, h4, h5, h6, [role="listitem"], [role="cell"], [role="gridcell"], [role="heading"]';
  axe.configure({
    checks: [
      {
        id: 'a11y-audit-link-text-descriptive',
        evaluate(this: any, node: Element, options: any, virtualNode: any) {
          const name: string = axe.commons.text.accessibleTextVirtual(virtualNode) || '';
          if (name.trim() === '') return true; // no name at all is link-name's failure, not ours
          const norm = normalise(name);
          const vague = norm === '' || options.generic.indexOf(norm) !== -1 || /^(https?:\/\/|www\.)\S+$/.test(norm);
          if (!vague) return true;
          // What the offline fix texts need: the vague text and where the link goes (full, unlike
          // the engine's HTML snippet, which cuts long attribute values).
          this.data({ name: name.trim().slice(0, 120), href: (node.getAttribute('href') || '').slice(0, 500) });
          // Purpose may come from the enclosing sentence, list item, cell or heading (WCAG 2.4.4 "in context").
          const ctx = node.closest(contextSelector);
          const ctxText = ctx ? (ctx.textContent || '').replace(node.textContent || '', '') : '';
          if (/[\p{L}\p{N}]{3,}/u.test(ctxText) || node.hasAttribute('aria-describedby')) return undefined;
          return false;
        },
        options: { generic },
        metadata: {
          impact: 'serious',
          messages: {
            pass: 'Link text describes the link purpose',
            fail: 'Link text "${data.name}" does not describe where the link goes',
            incomplete: 'Link text "${data.name}" is vague; check that the surrounding text gives its purpose',
          },
        },
      },
    ],
    rules: [
      {
        id: 'link-text-generic',
        selector: 'a[href], [role="link"]',
        excludeHidden: true,
        tags: ['cat.name-role-value', 'wcag2a', 'wcag244', 'a11y-audit'],
        impact: 'serious',
        metadata: {
          description: 'Ensures the text of every link, alone or with its context, tells where the link goes',
          help: 'Link text must describe the purpose of the link',
          helpUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html',
        },
        all: [],
        any: ['a11y-audit-link-text-descriptive'],
        none: [],
      },
    ],
  });
}

/** Source to append to axe-core's own source: it registers the custom rules on load. */
export function customRulesSource(lang = 'en'): string {
  const generic = GENERIC_LINK_NAMES[lang] ?? GENERIC_LINK_NAMES.en!;
  return `;(${registerCustomRules.toString()})(window.axe, ${JSON.stringify(generic)});`;
}
