import { Parser } from 'htmlparser2';

export interface ExtractedLinks {
  links: string[];
  /** `<base href>` if the page sets one: relative links resolve against it. */
  base: string | undefined;
  /** `<meta name="robots" content="nofollow">` (or none). */
  nofollow: boolean;
}

/** Every `<a href>` and `<area href>` of an HTML document, with its base and robots meta. */
export function extractLinks(html: string): ExtractedLinks {
  const links: string[] = [];
  let base: string | undefined;
  let nofollow = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if ((name === 'a' || name === 'area') && attrs.href !== undefined) {
          if (!/\bnofollow\b/i.test(attrs.rel ?? '')) links.push(attrs.href);
        } else if (name === 'base' && attrs.href && base === undefined) {
          base = attrs.href;
        } else if (name === 'meta' && (attrs.name ?? '').toLowerCase() === 'robots' && /\b(nofollow|none)\b/i.test(attrs.content ?? '')) {
          nofollow = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { links: nofollow ? [] : links, base, nofollow };
}
